/**
 * Settling in bounded slices of virtual time (inferred): a clock advance over many runs would
 * otherwise apply every due event in one transaction and stall other clients. Due events are cut
 * into windows of at most `slice` events (events sharing an instant stay together), each settled
 * in its own transaction, yielding between windows; the account's requests wait for the settle in
 * progress. The result equals one settle: events apply in a canonical order no window changes.
 */
import type { Account } from '../../domain/records.js';
import { pendingInstants } from '../../domain/run-timeline.js';
import type { Deps } from '../deps.js';
import type { Transition } from './apply-due.js';
import { settleAccount } from './settle.js';

export const DEFAULT_SETTLE_SLICE = 2000;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Window ends in (.., upTo]: each closes after at most `slice` events, the last is `upTo`. */
export function windowEnds(deps: Deps, account: Account, upTo: number, slice: number): number[] {
  const { store } = deps;
  const instants: number[] = [];
  for (const record of store.runs.due(account.id, upTo))
    instants.push(...pendingInstants(record, upTo));
  instants.sort((a, b) => a - b);
  const ends: number[] = [];
  let count = 0;
  for (const [i, at] of instants.entries()) {
    count += 1;
    // Events sharing the window's last instant all go into it.
    if (count >= slice && instants[i + 1] !== at && at < upTo) {
      ends.push(at);
      count = 0;
    }
  }
  ends.push(upTo);
  return ends;
}

async function settleWindows(deps: Deps, account: Account, upTo: number): Promise<Transition[]> {
  const ends = windowEnds(deps, account, upTo, deps.config.settleSlice);
  const transitions: Transition[] = [];
  for (const [i, end] of ends.entries()) {
    for (const t of settleAccount(deps, account, end)) transitions.push(t);
    if (i < ends.length - 1) await yieldToLoop();
  }
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
  if (!running) {
    const due = deps.store.earliestDue(account.id);
    if (due === null || due > upTo) return undefined;
  }
  const mine = (running ?? Promise.resolve()).then(() => settleWindows(deps, account, upTo));
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
