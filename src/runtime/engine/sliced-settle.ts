/**
 * Settling in bounded slices of virtual time (issue 9 item 4, our inference). A clock advance
 * over many runs would otherwise apply every due event in one synchronous transaction and stall
 * every other client. Here the due events are cut into windows of at most `slice` events (window
 * ends fall on event instants; events sharing an instant stay together), each applied by
 * `settleAccount` in its own transaction, yielding to the event loop between windows so other
 * accounts' requests are served meanwhile. Requests of the same account wait for the settle in
 * progress (a per-account lock) and then see the settled state. Results equal one settle:
 * `settleAccount` orders events and transitions canonically (instant, then creation order, then
 * the run's own order), which no window boundary changes.
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
 * Brings the account to `upTo` in slices, after any settle of the account already in progress.
 * Answers the transitions applied, in order; undefined, with no promise to wait for, when
 * nothing is due and nothing is in progress (nearly every request).
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
