/**
 * The SDK log of a run's current attempt (API document section 4.4), derived from the attempt as
 * the clock passes its events, not stored; a resume starts a new log.
 */

import { toTimestamp } from '../../core/timestamp.js';
import type { OutcomeEntry } from '../contract/outcomes.js';
import type { RunAttempt, RunRequest } from '../records.js';
import type { RunKind } from '../run-kind.js';
import { endPhase, stepsBefore } from './schedule.js';
import { cutShort, pendingEvents } from './timeline.js';

/** A log line stamped with its virtual instant. */
export const logLine = (at: number, text: string) => `${toTimestamp(at)} ${text}`;

/**
 * The attempt's log as of `upTo` (its `appliedUntil` once settled; the archive's is at its end). A
 * cancel is logged when requested, after every event up to then was applied.
 * @example attemptLog(kind, request, run, ctx, run.appliedUntil)
 */
export function attemptLog<Req extends RunRequest, Ctx>(
  kind: RunKind<Req, Ctx>,
  request: Req,
  run: RunAttempt,
  ctx: Ctx,
  upTo: number,
): string[] {
  const { schedule } = run;
  const lines = [
    logLine(schedule.startMs, kind.queuedLine(request, run.attempt, schedule.totalSteps)),
  ];
  for (const event of pendingEvents(run)) {
    if (event.at > upTo) continue;
    if (event.kind === 'phase') {
      lines.push(logLine(event.at, `phase ${event.phase} started`));
    } else if (event.kind === 'step') {
      // The step's 1-based index among all steps of the schedule.
      const index = stepsBefore(schedule.segments, event.phase) + event.step;
      lines.push(logLine(event.at, kind.stepLine(ctx, index, schedule.totalSteps)));
    } else {
      lines.push(logLine(event.at, endLine(kind, run, ctx)));
    }
  }
  if (run.cancel) {
    lines.push(logLine(run.cancel.at, 'cancel requested'));
    const cut = cutShort(run);
    if (cut && cut.doneAt <= upTo) lines.push(logLine(cut.doneAt, 'run canceled'));
  }
  return lines;
}

/** The last line of an attempt that ran to its end: its failure, or the kind's closing line. */
function endLine<Req extends RunRequest, Ctx>(
  kind: RunKind<Req, Ctx>,
  run: RunAttempt,
  ctx: Ctx,
): string {
  const { outcome, schedule } = run;
  if ('fail' in outcome) {
    const { error } = kind.failure(
      ctx,
      outcome as Extract<OutcomeEntry, { fail: unknown }>,
      schedule,
    );
    return `run failed in ${endPhase(schedule)}: ${error.code}: ${error.message}`;
  }
  return kind.success(ctx, schedule.stepsAtEnd).line;
}
