/**
 * Twins on the same engine as evaluations: `queued`, then `processing`, then `succeeded` (with
 * its files) or `failed`, so `twin_not_ready` is reachable without seeding a state.
 */

import { twinSnapshot } from '../domain/event-view.js';
import type { TwinRecord } from '../domain/records.js';
import { buildSchedule, scheduleEvents } from '../domain/run-schedule.js';
import type { Deps } from '../runtime/deps.js';
import type { Transition } from './apply-due.js';
import { toTimestamp } from './clock.js';
import { type EventDraft, eventOf } from './event-log.js';

export const TWIN_QUEUE_MS = 1000;
export const TWIN_PROCESSING_MS = 4000;

export function twinRun(
  now: number,
  fileCount: number,
  fail: boolean,
): NonNullable<TwinRecord['run']> {
  const schedule = buildSchedule(
    now,
    TWIN_QUEUE_MS,
    [{ name: 'processing', ms: TWIN_PROCESSING_MS }],
    fail ? { phase: 'processing' } : undefined,
  );
  return { schedule, fileCount, appliedUntil: now };
}

/**
 * Applies the twin's due events in (appliedUntil, upTo]; `onSucceeded` lays down its files.
 * Each status change goes onto `transitions`, and its event draft onto `events`.
 */
export function applyTwinDue(
  deps: Deps,
  twin: TwinRecord,
  upTo: number,
  transitions: Transition[],
  events: EventDraft[],
  onSucceeded: (twin: TwinRecord) => void,
): void {
  const run = twin.run;
  if (!run) return;
  const scheduled = scheduleEvents(run.schedule);
  for (const e of scheduled) {
    if (e.at <= run.appliedUntil || e.at > upTo) continue;
    const from = twin.status;
    twin.status = e.kind === 'end' ? e.outcome : 'processing';
    if (e.kind === 'end' && e.outcome === 'succeeded') onSucceeded(twin);
    if (from !== twin.status) {
      transitions.push({
        at: toTimestamp(e.at),
        resource: twin.id,
        from,
        to: twin.status,
        phase: null,
      });
      events.push(eventOf(twin.accountId, e.at, from, twinSnapshot(twin)));
    }
  }
  run.appliedUntil = upTo;
  twin.nextAt = scheduled.find((e) => e.at > upTo)?.at ?? null;
  deps.store.twins.save(twin);
}

/** The instants of the twin's events still to apply up to `upTo` (runtime/sliced-settle.ts). */
export function pendingTwinInstants(twin: TwinRecord, upTo: number): number[] {
  const run = twin.run;
  if (!run) return [];
  return scheduleEvents(run.schedule)
    .filter((e) => e.at > run.appliedUntil && e.at <= upTo)
    .map((e) => e.at);
}

/**
 * When a settled twin started processing and when it ended, in virtual ms (null: not yet). A
 * twin built on the clock reads them off its schedule; one seeded in a fixed state took no
 * time, so it started and ended (as far as its state says it did) when it was seeded.
 */
export function twinTimes(twin: TwinRecord): { startedAt: number | null; endedAt: number | null } {
  const started = twin.status !== 'queued';
  const ended = twin.status === 'succeeded' || twin.status === 'failed';
  const startMs = twin.run ? twin.run.schedule.queueEndMs : Date.parse(twin.createdAt);
  const endMs = twin.run ? twin.run.schedule.endMs : Date.parse(twin.createdAt);
  return { startedAt: started ? startMs : null, endedAt: ended ? endMs : null };
}
