/** An attempt's events still to happen, and how the run shows at each (DESIGN.md section 4). */

import type { RunAttempt, RunRecord, RunState } from '../records.js';
import { type ScheduleEvent, scheduleEvents } from './schedule.js';
import { deriveState } from './state.js';

/**
 * The events of the attempt, cut short by a cancel; `withSteps: false` leaves out the steps, which
 * only add log lines: the transitions the clock applies.
 */
export function pendingEvents(run: RunAttempt, withSteps = true): ScheduleEvent[] {
  const events = scheduleEvents(run.schedule, withSteps);
  const cancel = cutShort(run);
  return cancel ? events.filter((e) => e.at <= cancel.at && e.kind !== 'end') : events;
}

/** A cancel that cuts the attempt short (one after its end changes nothing). */
export function cutShort(run: RunAttempt): RunAttempt['cancel'] {
  return run.cancel && run.cancel.at < run.schedule.endMs ? run.cancel : null;
}

/** A transition still to apply, with what applying it costs a settle window (sliced settling). */
export interface PendingWork {
  at: number;
  /** 1, plus the attempt's steps at its end: its outputs derive from every step. */
  work: number;
  /** The attempt's end (its success or failure). */
  ends: boolean;
}

/** The run's transitions still to apply up to `upTo`, in time order, each with its work. */
export function pendingWork(record: RunRecord, upTo: number): PendingWork[] {
  const run = record.state.run;
  if (!run) {
    const at = record.nextAt;
    return at !== null && at <= upTo ? [{ at, work: 1, ends: false }] : [];
  }
  const after = run.appliedUntil;
  const items = pendingEvents(run, false)
    .filter((e) => e.at > after && e.at <= upTo)
    .map((e) =>
      e.kind === 'end'
        ? { at: e.at, work: 1 + run.schedule.stepsAtEnd, ends: true }
        : { at: e.at, work: 1, ends: false },
    );
  const cancel = cutShort(run);
  if (cancel && cancel.doneAt > after && cancel.doneAt <= upTo)
    items.push({ at: cancel.doneAt, work: 1, ends: false });
  return items;
}

/** When the attempt's next transition after `after` is due; null when nothing is left. */
export function nextDue(run: RunAttempt, after: number): number | null {
  const next = pendingEvents(run, false).find((e) => e.at > after)?.at;
  if (next !== undefined) return next;
  const cancel = cutShort(run);
  return cancel && cancel.doneAt > after ? cancel.doneAt : null;
}

/**
 * The run as the API shows it right after a transition to `to` applied at `at`, derived from the
 * state so far; an end counts as applied at its instant. A run of zero-second phases shows `queued`
 * until its end, but for its one `processing` instant.
 */
export function shownAt(
  record: Pick<RunRecord, 'state'>,
  at: number,
  to: string,
  phase: string | null,
  stepNoun?: string,
): RunState {
  const run = record.state.run;
  const ended = to !== 'processing' && to !== 'canceling';
  const source =
    ended && run && run.appliedUntil < at
      ? { ...record.state, run: { ...run, appliedUntil: at } }
      : record.state;
  const state = deriveState(source, at, stepNoun);
  if (state.status === to) return state;
  return {
    ...state,
    status: to as RunState['status'],
    phase: phase as RunState['phase'],
    status_message: `Phase ${phase}`,
  };
}

/** One transition of a run's timeline: what it shows from `at` on. */
export interface TimelineEntry {
  at: number;
  status: string;
  phase: string | null;
}

/**
 * The current attempt's transitions on the virtual clock, applied or still to come, in time order
 * (the inspector's run timeline): queued, each phase, the end, or a cancel; a run seeded in a
 * fixed state has only its cancel, if any.
 */
export function attemptTimeline(record: RunRecord): TimelineEntry[] {
  const run = record.state.run;
  const cancel = run ? cutShort(run) : (record.state.cancel ?? null);
  const items: TimelineEntry[] = [];
  if (run) {
    items.push({ at: run.schedule.startMs, status: 'queued', phase: null });
    for (const e of pendingEvents(run, false)) {
      if (e.kind === 'phase') items.push({ at: e.at, status: 'processing', phase: e.phase });
      // A succeeded run shows no phase (docs/runtime.md); a failed one keeps the phase it failed in.
      if (e.kind === 'end')
        items.push({ at: e.at, status: e.outcome, phase: e.outcome === 'failed' ? e.phase : null });
    }
  }
  if (cancel) {
    items.push({ at: cancel.at, status: 'canceling', phase: null });
    items.push({ at: cancel.doneAt, status: 'canceled', phase: null });
  }
  return items.sort((a, b) => a.at - b.at);
}
