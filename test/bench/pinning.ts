import { spawnSync } from 'node:child_process';
import os from 'node:os';

/** The servers run on this core, the load generator (the bench's own process) on the other. */
const SERVER_CORE = '0';
const LOAD_CORE = '1';

/** How the bench keeps the servers and the load generator apart. */
export interface Pinning {
  /** Put before a server's command line: `taskset -c 0`, or nothing when pinning failed. */
  prefix: string[];
  /** One line for the top of the output: where each side runs, or why they share cores. */
  summary: string;
}

/**
 * Pins this process (every thread of it) to core 1 and answers how to start servers on core 0,
 * with util-linux `taskset`. Without `taskset` or a second core it pins nothing and says so: the
 * ratios are then measured with both sides competing for the same cores.
 */
export function pinCores(): Pinning {
  const unpinned = (why: string): Pinning => ({
    prefix: [],
    summary: `WARNING: servers and load generator are not pinned (${why}); ratios are less steady`,
  });
  if (os.availableParallelism() < 2) return unpinned('fewer than 2 cores available');
  const self = spawnSync('taskset', ['-a', '-p', '-c', LOAD_CORE, String(process.pid)], {
    stdio: 'ignore',
  });
  if (self.error) return unpinned(`taskset: ${self.error.message}`);
  if (self.status !== 0) return unpinned(`taskset exited ${self.status}`);
  return {
    prefix: ['taskset', '-c', SERVER_CORE],
    summary: `servers pinned to core ${SERVER_CORE}, load generator to core ${LOAD_CORE} (taskset)`,
  };
}

/**
 * Runs `fn` with this process on every core (its pinning restored after), for a scenario whose
 * server uses both cores and whose own load is light: a load generator held to one core would
 * wait for the server's busy threads there, and count that wait as the server's.
 */
export async function onAllCores<T>(pinning: Pinning, fn: () => Promise<T>): Promise<T> {
  if (pinning.prefix.length === 0) return fn();
  const all = `0-${os.availableParallelism() - 1}`;
  const pin = (cores: string) =>
    spawnSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' });
  pin(all);
  try {
    return await fn();
  } finally {
    pin(LOAD_CORE);
  }
}
