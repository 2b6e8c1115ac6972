/**
 * A load generator in a process of its own: `fork`ed with autocannon's options as its one
 * argument (JSON), it runs them until the parent sends `stop`, then sends autocannon's result and
 * exits. For a scenario whose own process does heavy work meanwhile (uploading 1 MB bodies): in
 * the same event loop, that work's turns would count as the server's latency.
 */
import autocannon from 'autocannon';

const instance = autocannon(JSON.parse(process.argv[2]), (err, result) => {
  process.send?.(err ? { error: String(err) } : { result }, () => process.exit(0));
});
process.on('message', (message) => {
  if (message === 'stop') instance.stop();
});
process.send?.('started');
