import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs an ES module `script` in a fresh Node process (tsx loaded, so it may import src/*.ts; node
 * `args` before it; NODE_OPTIONS emptied) and answers the JSON of its last line of output: what
 * V8 settings and garbage collections do, measured away from the test runner's own heap. It
 * does not block the test's worker, so the test's limit (test/wait.ts) still catches a hang.
 * @example await childJson<{ mb: number }>(`console.log(JSON.stringify({ mb: 1 }))`)
 */
export async function childJson<T>(script: string, args: string[] = []): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    [...args, '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}
