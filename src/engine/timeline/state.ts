/** A run's state derived from its attempt's schedule and a virtual now (DESIGN.md section 4). */
import { toTimestamp } from '../../core/timestamp.js';
import type { RunState } from '../records.js';
import { endPhase, phaseAt, progressAt, stepsAt } from './schedule.js';

/** The state at `now`: what the schedule derives, the rest as stored; a seeded run as is. */
export function deriveState(state: RunState, now: number, stepNoun = 'episode'): RunState {
  const run = state.run;
  if (!run) return deriveSeeded(state, now);
  const { schedule, cancel } = run;
  // The end is shown once it is applied (its result, error and tokens are stored then): an
  // attempt that ends at the instant it starts reads as just before its end until it settles.
  const cutShort = cancel !== null && cancel.at < schedule.endMs;
  if (!cutShort && now >= schedule.endMs && run.appliedUntil < schedule.endMs)
    now = schedule.endMs - 1;
  const canceled = cutShort && now >= cancel.at;
  const t = canceled ? cancel.at : now;
  const episodes = { done: stepsAt(schedule, t), total: schedule.totalSteps };
  const phase = phaseAt(schedule, Math.min(t, schedule.endMs - 1)) as RunState['phase'];
  const progress = progressAt(schedule, t);
  const started_at = t >= schedule.queueEndMs ? toTimestamp(schedule.queueEndMs) : null;
  const shown = { ...state, started_at, phase, progress, episodes };
  if (canceled) {
    return now >= cancel.doneAt
      ? { ...shown, status: 'canceled', status_message: 'Canceled' }
      : { ...shown, status: 'canceling', status_message: 'Canceling' };
  }
  if (now < schedule.queueEndMs)
    return { ...shown, status: 'queued', phase: null, progress: 0, status_message: 'Queued' };
  if (now >= schedule.endMs) {
    const failedIn = schedule.failed ? (endPhase(schedule) as RunState['phase']) : null;
    return { ...shown, status: schedule.failed ? 'failed' : 'succeeded', phase: failedIn };
  }
  const stepped = schedule.segments.find((s) => s.steps > 0)?.name;
  const status_message =
    phase === stepped
      ? `Running ${stepNoun} ${Math.min(episodes.done + 1, episodes.total)} of ${episodes.total}`
      : `Phase ${phase}`;
  return { ...shown, status: 'processing', status_message };
}

/** A seeded run stays as seeded, except for a cancel: `canceling`, then `canceled`. */
function deriveSeeded(state: RunState, now: number): RunState {
  const cancel = state.cancel;
  if (!cancel || now < cancel.at || state.status === 'canceled') return state;
  if (now < cancel.doneAt) return { ...state, status: 'canceling', status_message: 'Canceling' };
  return {
    ...state,
    status: 'canceled',
    status_message: 'Canceled',
    completed_at: toTimestamp(cancel.doneAt),
  };
}
