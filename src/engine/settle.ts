import type { Account } from '../core/records.js';
import { applyDue, type Transition } from './apply-due.js';
import type { Deps } from './deps.js';
import { type EventDraft, recordEvents } from './event-log.js';
import type { RunRecord } from './records.js';
import type { ReadyEnd } from './settle-ends.js';

const byInstant = (a: EventDraft, b: EventDraft) => a.at - b.at;

/**
 * Brings every run of the account (or only those of `only`) up to `now` in one transaction, each
 * due transition once with its event, taking the outputs of ends from `ends` where computed
 * ahead; answers the status and phase changes in time order.
 * @example settleAccount(deps, account, clock.now()) // [{ at, resource, from, to, phase }]
 */
export function settleAccount(
  deps: Deps,
  account: Account,
  now: number,
  only?: ReadonlySet<string>,
  ends?: ReadonlyMap<string, ReadyEnd>,
): Transition[] {
  const { store } = deps;
  // The common case: nothing due. One indexed read, no transaction.
  const due = store.earliestDue(account.id);
  if (due === null || due > now) return [];
  const transitions: Transition[] = [];
  const events: EventDraft[] = [];
  store.tx(() => {
    for (const record of dueRuns(deps, account, now, only)) {
      const kind = deps.kinds.byName[record.kind];
      // A kind this emulator does not know (a newer one's --db file) stays as it is.
      if (!kind) continue;
      applyDue(deps, kind, account, record, now, { transitions, events }, ends?.get(record.id));
      store.runs.saveState(record);
    }
    // Resources were applied one after another: the log takes their events in time order.
    recordEvents(deps, events.sort(byInstant));
  });
  // Stable sort: runs were applied in due order, and each run's changes are in time order.
  return transitions.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/**
 * The account's runs due by `now` in creation order, or only those of `only` (named in creation
 * order: a window of one crowded instant reads its own runs, not all the instant's).
 */
function dueRuns(deps: Deps, account: Account, now: number, only?: ReadonlySet<string>) {
  if (!only) return deps.store.runs.due(account.id, now);
  return [...only]
    .map((id) => deps.store.runs.get(account.id, id))
    .filter((r): r is RunRecord => r !== undefined && r.nextAt !== null && r.nextAt <= now);
}
