import v8 from 'node:v8';

/**
 * Keeps V8's young generation at the size it starts with (8 MB on 64-bit Node 20 to 24) in the
 * emulator's own process (issue 12 item 4). Under load V8 doubles it up to 32 MB and keeps it:
 * measured after 30 s of the bench's mixed load, RSS fell from 185-202 MB to 158-172 MB with
 * this, and the same load ran about a third more requests (a young generation that stays in the
 * CPU's caches). `--max-semi-space-size` would do it, but only on the command line; the growth
 * factor is read each time V8 grows the space, so setting it once started still takes effect
 * (a test checks it on every supported Node version). A size the user chose (`node
 * --max-semi-space-size=...` or NODE_OPTIONS) is left alone. Called by `main.ts` only: a test
 * process that starts the emulator in-process keeps its own settings.
 * @example capYoungGeneration(process.execArgv, process.env.NODE_OPTIONS)
 */
export function capYoungGeneration(execArgv: readonly string[], nodeOptions?: string): boolean {
  if ([...execArgv, nodeOptions ?? ''].some((arg) => /semi[-_]space/.test(arg))) return false;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}
