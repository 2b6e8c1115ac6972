import type { EventEmitter } from 'node:events';
import v8 from 'node:v8';
import vm from 'node:vm';

/** How long without a request counts as idle. */
export const QUIET_MS = 1000;
/** At most one collection this often, whatever the traffic's rhythm. */
export const MIN_INTERVAL_MS = 10_000;
/** Growth of V8's heap since the last collection below which one is not worth its pause. */
export const MIN_GROWTH_BYTES = 8 * 1024 * 1024;

export interface IdleCollector {
  stop(): void;
}

/**
 * Two full garbage collections when the emulator goes quiet after traffic (issue 12 item 4). A
 * busy minute leaves V8's old generation grown with garbage it collects only when it next needs
 * room, which an idle server never does, and the memory stays taken. Measured after 30 s of the
 * bench's mixed load: one collection took V8's heap from 96 to 83 MB and RSS from 189 to 176
 * MB; a second right after it gives the freed pages back (heap 100 to 36 MB, RSS 193 to 129
 * MB). The pauses (tens of milliseconds) fall when no request waits. `collect` is V8's `gc`, reached
 * without `--expose-gc` on the command line (see `exposedGc`); main.ts only: a test process
 * that starts the emulator in-process keeps its own collector to itself.
 * @example collectWhenIdle(server, exposedGc(), () => process.memoryUsage().heapTotal)
 */
export function collectWhenIdle(
  server: EventEmitter,
  collect: () => void,
  heapBytes: () => number,
  options: { quietMs?: number; minIntervalMs?: number; minGrowthBytes?: number } = {},
): IdleCollector {
  const quietMs = options.quietMs ?? QUIET_MS;
  const minIntervalMs = options.minIntervalMs ?? MIN_INTERVAL_MS;
  const minGrowth = options.minGrowthBytes ?? MIN_GROWTH_BYTES;
  let requests = 0;
  let seen = 0;
  let busy = false;
  let last = Number.NEGATIVE_INFINITY;
  let heapAfter = heapBytes();
  const count = () => {
    requests += 1;
  };
  server.on('request', count);
  let since = 0;
  const timer = setInterval(() => {
    since += quietMs;
    if (requests !== seen) {
      seen = requests;
      busy = true;
      return;
    }
    if (!busy || since - last < minIntervalMs || heapBytes() - heapAfter < minGrowth) return;
    busy = false;
    last = since;
    collect();
    collect();
    heapAfter = heapBytes();
  }, quietMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      server.off('request', count);
    },
  };
}

/**
 * V8's `gc` function, compacting: the flag is set at run time, and a new context gets the function
 * (the process's own global never does). Undefined if a Node version stops allowing it.
 *
 * Each call sets `--compact-on-every-full-gc` for its collection only. Without it V8 moves the
 * live objects off only the emptiest pages, and after the bench's 60-second mixed load the old
 * generation kept 31 to 41 MB of pages for 27 MB of live objects, varying from run to run;
 * compacted, it keeps 28 to 29 MB, and RSS falls by 11 to 16 MB (issue 12 item 4). V8 reads the
 * flag at each collection; a collection V8 starts itself does not compact everything.
 */
export function exposedGc(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    if (typeof gc !== 'function') return undefined;
    return () => {
      v8.setFlagsFromString('--compact-on-every-full-gc');
      try {
        gc();
      } finally {
        v8.setFlagsFromString('--no-compact-on-every-full-gc');
      }
    };
  } catch {
    return undefined;
  }
}
