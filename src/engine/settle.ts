import type { Account } from '../core/records.js';
import { applyDue, type Transition } from './apply-due.js';
import type { Deps } from './deps.js';
import { type EventDraft, recordEvents } from './event-log.js';

const byInstant = (a: EventDraft, b: EventDraft) => a.at - b.at;

/**
 * Brings every run of the account (or only those of `only`) up to `now` in one transaction, each
 * due transition once with its event; answers the status and phase changes in time order.
 * @example settleAccount(deps, account, clock.now()) // [{ at, resource, from, to, phase }]
 */
export function settleAccount(
  deps: Deps,
  account: Account,
  now: number,
  only?: ReadonlySet<string>,
): Transition[] {
  const { store } = deps;
  // The common case: nothing due. One indexed read, no transaction.
  const due = store.earliestDue(account.id);
  if (due === null || due > now) return [];
  const transitions: Transition[] = [];
  const events: EventDraft[] = [];
  store.tx(() => {
    for (const record of store.runs.due(account.id, now)) {
      if (only && !only.has(record.id)) continue;
      const kind = deps.kinds.byName[record.kind];
      // A kind this emulator does not know (a newer one's --db file) stays as it is.
      if (!kind) continue;
      applyDue(deps, kind, account, record, now, { transitions, events });
      store.runs.saveState(record);
    }
    // Resources were applied one after another: the log takes their events in time order.
    recordEvents(deps, events.sort(byInstant));
  });
  // Stable sort: runs were applied in due order, and each run's changes are in time order.
  return transitions.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
