/**
 * Settling in windows, each its own transaction (inferred), so an advance over many runs does not
 * stall other clients; the account's requests wait for it. A window holds about `windowMs` of the
 * event loop's work, sized from the time the windows before it took, and at most `slice` work: a
 * transition is 1, an attempt's end 1 plus its steps unless a worker computes its outputs. The
 * result equals one settle: transitions apply in an order (instant, then run) no window changes.
 */
import { setImmediate } from 'node:timers/promises';
import type { Account } from '../core/records.js';
import type { Transition } from './apply-due.js';
import type { Deps } from './deps.js';
import { buildPendingArchives } from './pending-archives.js';
import type { RunRecord } from './records.js';
import { settleAccount } from './settle.js';
import { SettleEnds } from './settle-ends.js';
import type { SettleWorkers } from './settle-pool.js';
import { pendingWork } from './timeline/timeline.js';

export const DEFAULT_SETTLE_SLICE = 2000;
/** How long a window may hold the event loop, about (`settleWindowMs`). */
export const DEFAULT_WINDOW_MS = 8;
/**
 * The work of a settle's first window, before any was timed: small, as its code may not be
 * compiled yet (50 took 15 to 58 ms in the big advance's first window); the next grow fourfold.
 */
const FIRST_WINDOW = 10;

/** How an emulator settles (`createEmulator` options). */
export interface SettleOptions {
  /** Most work one settle window applies. Default 2000. */
  settleSlice?: number;
  /** About how long a settle window holds the event loop; Infinity: `settleSlice` alone. Default 8. */
  settleWindowMs?: number;
  /**
   * Worker threads for the ends, archives and logs of runs of `minSteps` steps or more; `threads:
   * 0`: none (settle-pool.ts). Default the cores but one (1 or 2), 100 steps.
   */
  settleWorkers?: Partial<SettleWorkers>;
}

/** The settle's part of the emulator's configuration (deps.ts: AppConfig), defaults filled in. */
export function settleConfig(options: SettleOptions) {
  return {
    settleSlice: options.settleSlice ?? DEFAULT_SETTLE_SLICE,
    settleWindowMs: options.settleWindowMs ?? DEFAULT_WINDOW_MS,
  };
}

/** A window: everything due up to `end`, or only the runs named (all their transitions at `end`). */
export interface SettleWindow {
  end: number;
  runs?: ReadonlySet<string>;
  /** What applying it costs the event loop, in work. */
  work: number;
}

/**
 * For each instant with transitions due up to `upTo`, each run's work then, in run order; and the
 * runs whose attempts end by then, with the instant.
 */
function dueWork(deps: Deps, account: Account, upTo: number) {
  const byInstant = new Map<number, Map<string, number>>();
  const ends: { record: RunRecord; at: number }[] = [];
  for (const record of deps.store.runs.due(account.id, upTo)) {
    const elsewhere = deps.engine.settlePool.takes(record);
    for (const { at, work, ends: end } of pendingWork(record, upTo)) {
      const runs = byInstant.get(at) ?? new Map<string, number>();
      byInstant.set(
        at,
        runs.set(record.id, (runs.get(record.id) ?? 0) + (end && elsewhere ? 1 : work)),
      );
      if (end) ends.push({ record, at });
    }
  }
  return { instants: [...byInstant].sort(([a], [b]) => a - b), ends };
}

/**
 * The windows that bring the account to `upTo`, each of at most `budget()` work (asked again for
 * each window): whole instants while they fit, an instant with more split by run (a run's own
 * work beyond it takes a window alone); the last ends at `upTo`.
 */
export function* settleWindows(
  instants: [number, Map<string, number>][],
  upTo: number,
  budget: () => number,
): Generator<SettleWindow> {
  let count = 0;
  let last = Number.NEGATIVE_INFINITY;
  let slice = budget();
  for (const [at, runs] of instants) {
    let size = 0;
    for (const n of runs.values()) size += n;
    if (count > 0 && count + size > slice) {
      yield { end: last, work: count };
      count = 0;
      slice = budget();
    }
    if (size > slice) {
      yield* chunksOf(at, runs, budget);
      slice = budget();
    } else count += size;
    last = at;
  }
  yield { end: upTo, work: count };
}

/** An instant's runs in order, cut into windows of at most `budget()` work (one run at least). */
function* chunksOf(at: number, runs: Map<string, number>, budget: () => number) {
  let chunk = new Set<string>();
  let n = 0;
  let slice = budget();
  for (const [id, k] of runs) {
    if (n > 0 && n + k > slice) {
      yield { end: at, runs: chunk, work: n };
      chunk = new Set();
      n = 0;
      slice = budget();
    }
    chunk.add(id);
    n += k;
  }
  if (chunk.size > 0) yield { end: at, runs: chunk, work: n };
}

/**
 * The work the next window may hold: what `windowMs` takes at the rate the windows so far were
 * applied (growing at most fourfold a window), within 1 and `slice`; `slice` alone when
 * `windowMs` is infinite.
 */
function windowBudget(slice: number, windowMs: number) {
  let msPerWork: number | undefined;
  let last = Number.isFinite(windowMs) ? Math.min(slice, FIRST_WINDOW) : slice;
  return {
    next(): number {
      if (msPerWork === undefined) return last;
      const fits = Math.floor(windowMs / Math.max(msPerWork, 1e-6));
      last = Math.max(1, Math.min(slice, 4 * last, fits));
      return last;
    },
    took(ms: number, work: number): void {
      if (work === 0 || !Number.isFinite(windowMs)) return;
      const rate = ms / work;
      msPerWork = msPerWork === undefined ? rate : (msPerWork + rate) / 2;
    },
  };
}

/**
 * Settles window after window, yielding between, each once the outputs of the ends it applies are
 * computed (in the pool, all started at once); then builds the archives the windows owe.
 */
async function settleInWindows(deps: Deps, account: Account, upTo: number) {
  const { instants, ends } = dueWork(deps, account, upTo);
  // Reading every due run took 4 to 7 ms for 50 large ones: other calls come before the first window.
  await setImmediate();
  const ahead = new SettleEnds(deps, ends);
  const budget = windowBudget(deps.config.settleSlice, deps.config.settleWindowMs);
  const transitions: Transition[] = [];
  for (const { end, runs, work } of settleWindows(instants, upTo, () => budget.next())) {
    const ready = await ahead.upTo(end, runs);
    const started = performance.now();
    for (const t of settleAccount(deps, account, end, runs, ready)) transitions.push(t);
    budget.took(performance.now() - started, work);
    await setImmediate();
  }
  await buildPendingArchives(deps, account);
  return transitions;
}

/**
 * Brings the account to `upTo` in slices, after any settle already in progress; answers the
 * transitions applied, or undefined (no promise) when nothing is due or in progress.
 */
export function settleSliced(
  deps: Deps,
  account: Account,
  upTo: number,
): Promise<Transition[]> | undefined {
  const { engine } = deps;
  if (!engine.settleOf(account.id) && !engine.archivesOwed(account.id)) {
    const due = deps.store.earliestDue(account.id);
    if (due === null || due > upTo) return undefined;
  }
  return engine.settleAfter(account.id, () => settleInWindows(deps, account, upTo));
}
