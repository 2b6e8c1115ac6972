/** The event log (DESIGN.md section 4), written in the transaction that applies the transition. */

import { toTimestamp } from '../core/clock.js';
import type { Deps } from './deps.js';
import type { RecordedEvent } from './engine.js';
import type { RunRecord, RunState } from './records.js';
import { type EventSnapshot, snapshotSubject } from './timeline/event-view.js';

export interface EventDraft {
  at: number;
  accountId: string;
  type: string;
  resourceId: string;
  previousStatus: string | null;
  /** What a run seeded without an attempt showed: stored, there is no attempt to derive it from. */
  snapshot?: EventSnapshot;
  /** The attempt of the run the event belongs to (its snapshot is derived from it). */
  attempt?: number;
  /** A resume's event: the state the replaced attempt ended with, which its events read. */
  previous?: RunState;
}

/**
 * The event of a resource entering the status its snapshot shows (so type and body agree).
 * @example eventOf(record.accountId, now, 'failed', runSnapshot(record, record.state))
 */
export function eventOf(
  accountId: string,
  at: number,
  previousStatus: string | null,
  snapshot: EventSnapshot,
): EventDraft {
  const { id, kind, status } = snapshotSubject(snapshot);
  return { at, accountId, type: `${kind}.${status}`, resourceId: id, previousStatus, snapshot };
}

/**
 * The event of a run's attempt entering `to` at `at`; reading it derives the body from the attempt
 * (domain/event-state.ts). A resume's event keeps the replaced attempt's end state (`previous`).
 * @example runEventOf(record, now, 'failed', 'queued', stateBefore)
 */
export function runEventOf(
  record: RunRecord,
  at: number,
  previousStatus: string | null,
  to: string,
  previous?: RunState,
): EventDraft {
  return {
    at,
    accountId: record.accountId,
    type: `${record.kind}.${to}`,
    resourceId: record.id,
    previousStatus,
    attempt: record.state.run!.attempt,
    ...(previous?.run ? { previous } : {}),
  };
}

/**
 * Writes the drafts (in time order) with ids from the account's `evt` stream at their instants,
 * inside the transaction that applied them, and tells the engine's listeners of them there (the
 * webhooks pick their endpoints from the ones live now, and enqueue once it commits).
 * @example store.tx(() => recordEvents(deps, [runEventOf(record, now, null, 'queued')]))
 */
export function recordEvents(
  deps: Pick<Deps, 'store' | 'ids' | 'engine'>,
  drafts: readonly EventDraft[],
): void {
  const { store } = deps;
  const recorded: RecordedEvent[] = [];
  for (const d of drafts) {
    const n = store.events.nextNumber(d.accountId);
    const event: RecordedEvent = {
      id: deps.ids.numbered('evt', d.accountId, d.at, n),
      accountId: d.accountId,
      type: d.type,
      resourceId: d.resourceId,
      previousStatus: d.previousStatus,
      createdAt: toTimestamp(d.at),
    };
    // Not a spread of the event with these: a copy, then four properties defined one by one
    // (about 4% of a resume's instructions).
    const kept = {
      n,
      snapshot: d.snapshot ?? null,
      attempt: d.attempt ?? null,
      previous: d.previous ?? null,
    };
    store.events.insert(event, kept);
    recorded.push(event);
  }
  deps.engine.eventsRecorded(recorded);
}
