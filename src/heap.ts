/**
 * What the emulator's own process asks of V8 to keep its memory near what it holds
 * (docs/development.md, "Why it is fast"): a young generation that stays at its starting size,
 * and two full, compacting collections when the server goes quiet after traffic. main.ts only:
 * a process that starts the emulator in-process keeps its own heap settings.
 */
import type { EventEmitter } from 'node:events';
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Keeps V8's young generation at the size it has once the emulator's code is loaded (16 MB, two
 * semi-spaces of 8, on 64-bit Node 20 to 24): under load V8 grows it to 32 MB and keeps it. The
 * growth factor is read each time V8 grows the space, so setting it once started takes effect
 * (test/heap.test.ts checks it on each Node CI runs). A size the user chose
 * (`--max-semi-space-size` on the command line or in NODE_OPTIONS) is left alone.
 *
 * A full collection after a quiet spell (the idle collection below, or V8's own memory reducer)
 * shrinks the young generation to 2 MB; held at a growth factor of 1 it stayed there, and each
 * call after it cost up to twice the CPU (eight times the scavenges). So after each collection
 * the size is looked at, and while it is under the cap the factor lets the next growth reach the
 * cap in one step.
 * @example capYoungGeneration(process.execArgv, process.env.NODE_OPTIONS)
 */
export function capYoungGeneration(execArgv: readonly string[], nodeOptions?: string): boolean {
  if ([...execArgv, nodeOptions ?? ''].some((arg) => /semi[-_]space/.test(arg))) return false;
  const cap = youngGenerationBytes();
  let factor = 0;
  const hold = () => {
    const size = youngGenerationBytes();
    if (size === 0) return;
    const wanted = size < cap ? Math.max(2, Math.round(cap / size)) : 1;
    if (wanted === factor) return;
    factor = wanted;
    v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  };
  hold();
  new PerformanceObserver(hold).observe({ entryTypes: ['gc'] });
  return true;
}

/** The bytes V8's young generation takes (both semi-spaces). */
export function youngGenerationBytes(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space?.space_size ?? 0;
}

/**
 * V8 collects its old generation when it needs room, which an idle server never does, so the
 * garbage of a busy minute would stay in the RSS: collectWhenIdle collects it. V8's `gc` is
 * reached without `--expose-gc` on the command line, the way Jest's leak detector reaches it; on
 * a Node that stops allowing it, nothing is collected.
 */

/**
 * How long without a request counts as idle. A full collection costs the next traffic a warm-up
 * again (V8 meets new maps and re-optimizes: about 250 functions, 0.5 to 1 s of CPU after the
 * first one, keys/me at 180 to 300 us a call for its first 4,000 calls): after one quiet second,
 * a suite that pauses between its files, or a bench that alternates servers, paid it at each
 * pause. Ten seconds is idle; memory given back sooner buys nothing.
 */
export const QUIET_MS = 10_000;
/** At most one collection this often, whatever the traffic's rhythm. */
export const MIN_INTERVAL_MS = 10_000;
/** Growth of V8's heap since the last collection below which one is not worth its pause. */
export const MIN_GROWTH_BYTES = 8 * 1024 * 1024;

export interface IdleCollector {
  stop(): void;
}

/** @example collectWhenIdle(server, exposedGc(), () => process.memoryUsage().heapTotal) */
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
  let elapsed = 0;
  let last = Number.NEGATIVE_INFINITY;
  let heapAfter = heapBytes();
  const count = () => {
    requests += 1;
  };
  server.on('request', count);
  // Looked at every second (or every `quietMs`, if shorter): collected within a second of the
  // quiet spell's end.
  const tickMs = Math.min(1000, quietMs);
  let quietFor = 0;
  const timer = setInterval(() => {
    elapsed += tickMs;
    if (requests !== seen) {
      seen = requests;
      busy = true;
      quietFor = 0;
      return;
    }
    quietFor += tickMs;
    if (!busy || quietFor < quietMs) return;
    if (elapsed - last < minIntervalMs || heapBytes() - heapAfter < minGrowth) return;
    busy = false;
    last = elapsed;
    // The second collection gives back the pages the first one freed.
    collect();
    collect();
    heapAfter = heapBytes();
  }, tickMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      server.off('request', count);
    },
  };
}

/**
 * V8's `gc`, compacting every page (a plain full collection moves live objects off the emptiest
 * pages only, and leaves the rest in the RSS); undefined if this Node does not allow it.
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
