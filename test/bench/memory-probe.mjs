/**
 * Preloaded (`node --import`) into the servers the bench starts: answers the parent's
 * `usage` message over the IPC channel with `process.memoryUsage()`, so the bench can say how much
 * of the RSS is V8's heap and buffers and how much native memory (SQLite, code). Nothing else.
 */
process.on('message', (message) => {
  if (message === 'usage') process.send?.({ usage: process.memoryUsage() });
});
// The channel must not keep a server alive that would otherwise exit.
process.channel?.unref();
