/**
 * A run's state as an event showed it, derived from the state of the attempt the event belongs
 * to, so that an event stores no copy of the run (which would be the largest part of a run's
 * storage). `attempt` is that attempt's state as stored after the event: the run's own state
 * while the attempt is its current one, or the state it ended with. Every field the event
 * showed is either derived from the attempt's schedule at the event's instant (status, phase,
 * progress, episodes, status message, start time) or set when the attempt started (tokens
 * charged, service version) or when it ended (error, result, download, refund, completion
 * time), which an event before the end did not show yet.
 */
import type { RunState } from './records.js';
import { progressAt } from './run-schedule.js';
import { deriveState } from './run-state.js';
import { shownAt } from './run-timeline.js';
import { shownState } from './run-view.js';

/** Statuses an attempt ends in: their events show what the attempt ended with. */
const ENDS: readonly string[] = ['succeeded', 'failed', 'canceled'];

/**
 * The shown state of the event at `at` that took the run's attempt to `to`.
 * @example eventState(run.state, Date.parse(event.created_at), 'processing', kind.stepNoun)
 */
export function eventState(attempt: RunState, at: number, to: string, stepNoun: string): RunState {
  const run = attempt.run!;
  const record = { state: attempt };
  // An ended attempt's state shows the phase it ended in (as its end event recorded it).
  if (ENDS.includes(to))
    return shownState(shownAt(record as never, at, to, attempt.phase, stepNoun));
  const start: RunState = {
    ...attempt,
    error: null,
    result: null,
    download: null,
    completed_at: null,
    tokens: { charged: attempt.tokens.charged, refunded: refundedBefore(attempt) },
  };
  delete start.download_token;
  if (to === 'queued') {
    return shownState({
      ...start,
      status: 'queued',
      phase: null,
      progress: 0,
      status_message: 'Queued',
      episodes: { done: 0, total: run.schedule.totalSteps },
      started_at: null,
    });
  }
  if (to === 'canceling') return shownState(deriveState(start, at, stepNoun));
  const first = run.schedule.segments[0]?.name ?? null;
  return shownState(shownAt({ state: start } as never, at, to, first, stepNoun));
}

/**
 * The tokens refunded before the attempt settled: what the account got back for the earlier
 * attempts. An attempt that settled (`completed_at` set) added its own refund, the part of its
 * estimate its progress did not consume (at its end, or where a cancel cut it).
 */
function refundedBefore(attempt: RunState): number {
  const run = attempt.run!;
  if (attempt.completed_at === null) return attempt.tokens.refunded;
  const cut = run.cancel && run.cancel.at < run.schedule.endMs ? run.cancel.at : run.schedule.endMs;
  const progress = progressAt(run.schedule, cut);
  return attempt.tokens.refunded - (run.estimate - Math.round(run.estimate * progress));
}
