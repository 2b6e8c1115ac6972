import { spawnSync } from 'node:child_process';

/**
 * Runs an ES module `script` in a fresh Node process (tsx loaded, so it may import src/*.ts; node
 * `args` before it; NODE_OPTIONS emptied) and answers the JSON of its last line of output: what
 * V8 settings and garbage collections do, measured away from the test runner's own heap.
 * @example childJson<{ mb: number }>(`console.log(JSON.stringify({ mb: 1 }))`)
 */
export function childJson<T>(script: string, args: string[] = []): T {
  const child = spawnSync(
    process.execPath,
    [...args, '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as T;
}
