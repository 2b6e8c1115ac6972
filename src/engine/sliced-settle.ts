/**
 * Settling in windows of at most `slice` transitions, each its own transaction (inferred), so an
 * advance over many runs does not stall other clients; the account's requests wait for it. The
 * result equals one settle: transitions apply in an order (instant, then run) no window changes.
 */
import { setImmediate } from 'node:timers/promises';
import type { Account } from '../core/records.js';
import type { Transition } from './apply-due.js';
import type { Deps } from './deps.js';
import { buildPendingArchives } from './pending-archives.js';
import { settleAccount } from './settle.js';
import { pendingInstants } from './timeline/timeline.js';

export const DEFAULT_SETTLE_SLICE = 2000;

/** A window: everything due up to `end`, or only the runs named (all their transitions at `end`). */
export interface SettleWindow {
  end: number;
  runs?: ReadonlySet<string>;
}

/** For each instant with transitions due up to `upTo`, how many each run has then, in run order. */
function dueByInstant(deps: Deps, account: Account, upTo: number) {
  const byInstant = new Map<number, Map<string, number>>();
  for (const record of deps.store.runs.due(account.id, upTo)) {
    for (const at of pendingInstants(record, upTo)) {
      const runs = byInstant.get(at) ?? new Map<string, number>();
      byInstant.set(at, runs.set(record.id, (runs.get(record.id) ?? 0) + 1));
    }
  }
  return [...byInstant].sort(([a], [b]) => a - b);
}

/**
 * The windows that bring the account to `upTo`, each of at most `slice` transitions: whole
 * instants while they fit, an instant with more split by run; the last ends at `upTo`.
 */
export function settleWindows(
  deps: Deps,
  account: Account,
  upTo: number,
  slice: number,
): SettleWindow[] {
  const windows: SettleWindow[] = [];
  let count = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const [at, runs] of dueByInstant(deps, account, upTo)) {
    let size = 0;
    for (const n of runs.values()) size += n;
    if (count > 0 && count + size > slice) {
      windows.push({ end: last });
      count = 0;
    }
    if (size > slice) {
      for (const chunk of chunksOf(runs, slice)) windows.push({ end: at, runs: chunk });
    } else count += size;
    last = at;
  }
  windows.push({ end: upTo });
  return windows;
}

/** An instant's runs in order, cut into sets of at most `slice` transitions (one run at least). */
function chunksOf(runs: Map<string, number>, slice: number): Set<string>[] {
  const chunks: Set<string>[] = [];
  let chunk = new Set<string>();
  let n = 0;
  for (const [id, k] of runs) {
    if (n > 0 && n + k > slice) {
      chunks.push(chunk);
      chunk = new Set();
      n = 0;
    }
    chunk.add(id);
    n += k;
  }
  if (chunk.size > 0) chunks.push(chunk);
  return chunks;
}

/** Settles window after window, yielding between, then builds the archives the windows owe. */
async function settleInWindows(deps: Deps, account: Account, upTo: number) {
  const windows = settleWindows(deps, account, upTo, deps.config.settleSlice);
  const transitions: Transition[] = [];
  for (const [i, { end, runs }] of windows.entries()) {
    for (const t of settleAccount(deps, account, end, runs)) transitions.push(t);
    if (i < windows.length - 1) await setImmediate();
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
  const locks = deps.settling;
  const running = locks.get(account.id);
  if (!running && !deps.pendingArchives.has(account.id)) {
    const due = deps.store.earliestDue(account.id);
    if (due === null || due > upTo) return undefined;
  }
  const mine = (running ?? Promise.resolve()).then(() => settleInWindows(deps, account, upTo));
  const done = mine.then(
    () => undefined,
    () => undefined,
  );
  locks.set(account.id, done);
  void done.then(() => {
    if (locks.get(account.id) === done) locks.delete(account.id);
  });
  return mine;
}
