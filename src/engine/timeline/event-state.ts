/**
 * A run's state as an event showed it, derived from the state of the event's attempt (the run's
 * own while current, else the state it ended with), so that an event stores no copy of the run.
 * Fields come from the schedule at the event's instant, or were set when the attempt started or
 * ended (which an earlier event did not show yet).
 */

import type { RunState } from '../records.js';
import { progressAt } from './schedule.js';
import { deriveState } from './state.js';
import { cutShort, shownAt } from './timeline.js';
import { shownState } from './view.js';

/** Statuses an attempt ends in: their events show what the attempt ended with. */
const ENDS: readonly string[] = ['succeeded', 'failed', 'canceled'];

/**
 * The shown state of the event at `at` that took the run's attempt to `to`.
 * @example eventState(run.state, Date.parse(event.created_at), 'processing', kind.stepNoun)
 */
export function eventState(attempt: RunState, at: number, to: string, stepNoun: string): RunState {
  const run = attempt.run!;
  // An ended attempt's state shows the phase it ended in (as its end event recorded it).
  if (ENDS.includes(to))
    return shownState(shownAt({ state: attempt }, at, to, attempt.phase, stepNoun));
  const start: RunState = {
    ...attempt,
    error: null,
    result: null,
    download: null,
    completed_at: null,
    tokens: { charged: attempt.tokens.charged, refunded: refundedBefore(attempt) },
  };
  delete start.download_token;
  if (to === 'queued')
    return shownState({
      ...start,
      status: 'queued',
      phase: null,
      progress: 0,
      status_message: 'Queued',
      episodes: { done: 0, total: run.schedule.totalSteps },
      started_at: null,
    });
  if (to === 'canceling') return shownState(deriveState(start, at, stepNoun));
  const first = run.schedule.segments[0]?.name ?? null;
  return shownState(shownAt({ state: start }, at, to, first, stepNoun));
}

/**
 * The tokens refunded for earlier attempts: a settled attempt (`completed_at`) has added its own,
 * the part of its estimate its progress did not consume.
 */
function refundedBefore(attempt: RunState): number {
  const run = attempt.run!;
  if (attempt.completed_at === null) return attempt.tokens.refunded;
  const progress = progressAt(run.schedule, cutShort(run)?.at ?? run.schedule.endMs);
  return attempt.tokens.refunded - (run.estimate - Math.round(run.estimate * progress));
}
