/** One attempt's timeline (DESIGN.md section 4): every state derives from it and a virtual now. */

export interface PhasePlan {
  name: string;
  ms: number;
  /** Steps in this phase; each takes `ms / steps`. */
  steps?: number;
}

export interface FailurePlan {
  phase: string;
  /** In a stepped phase: fail after this many steps; otherwise half-way through the phase. */
  afterSteps?: number;
}

export interface Segment {
  name: string;
  startMs: number;
  endMs: number;
  steps: number;
}

export interface Schedule {
  startMs: number;
  queueEndMs: number;
  segments: Segment[];
  /** When the attempt ends: success at the end of the last phase, or the failure instant. */
  endMs: number;
  failed: boolean;
  /** The failing phase, recorded: several zero-length phases can share the failure instant. */
  failedPhase?: string;
  /** Steps completed when the attempt ends (all of them on success). */
  stepsAtEnd: number;
  totalSteps: number;
}

export type ScheduleEvent =
  | { at: number; kind: 'phase'; phase: string }
  | { at: number; kind: 'step'; phase: string; step: number; of: number }
  | { at: number; kind: 'end'; outcome: 'succeeded' | 'failed'; phase: string };

/** @example buildSchedule(0, 500, [{ name: 'running', ms: 2500, steps: 10 }]) */
export function buildSchedule(
  startMs: number,
  queueMs: number,
  phases: PhasePlan[],
  failure?: FailurePlan,
): Schedule {
  const segments: Segment[] = [];
  let at = startMs + queueMs;
  for (const p of phases) {
    segments.push({ name: p.name, startMs: at, endMs: at + p.ms, steps: p.steps ?? 0 });
    at += p.ms;
  }
  const totalSteps = segments.reduce((n, s) => n + s.steps, 0);
  const queueEndMs = startMs + queueMs;
  const target = failure && segments.find((s) => s.name === failure.phase);
  if (!failure || !target)
    return scheduleOf(startMs, queueEndMs, segments, totalSteps, at, null, totalSteps);
  let after = 0;
  let endMs = Math.round((target.startMs + target.endMs) / 2);
  if (target.steps > 0) {
    after = Math.min(
      Math.max(failure.afterSteps ?? Math.floor(target.steps / 2), 0),
      target.steps - 1,
    );
    const stepMs = (target.endMs - target.startMs) / target.steps;
    // Just after the step completes, so the completed step is logged before the failure.
    endMs = Math.round(target.startMs + after * stepMs + stepMs / 2);
  }
  const stepsAtEnd = stepsBefore(segments, target.name) + after;
  return scheduleOf(startMs, queueEndMs, segments, totalSteps, endMs, target.name, stepsAtEnd);
}

/**
 * A schedule object, its keys in their one order (`failedPhase` only when failed), for
 * buildSchedule and for a schedule read back from its tuples (store/run-state-text.ts). Written
 * out, not spread from a shared base: a property after a spread is defined through an inline
 * cache that missed every time (about 3% of a resume's instructions).
 */
export function scheduleOf(
  startMs: number,
  queueEndMs: number,
  segments: Segment[],
  totalSteps: number,
  endMs: number,
  failedPhase: string | null,
  stepsAtEnd: number,
): Schedule {
  return failedPhase === null
    ? { startMs, queueEndMs, segments, totalSteps, endMs, failed: false, stepsAtEnd }
    : { startMs, queueEndMs, segments, totalSteps, endMs, failed: true, failedPhase, stepsAtEnd };
}

/** The steps of the segments before the phase `name`. */
export function stepsBefore(segments: readonly Segment[], name: string): number {
  let n = 0;
  for (const s of segments) {
    if (s.name === name) break;
    n += s.steps;
  }
  return n;
}

/** A phase the attempt never enters: it starts after the end, or at it and lasts longer. */
function startsPastEnd(seg: Segment, endMs: number): boolean {
  return seg.startMs > endMs || (seg.startMs === endMs && seg.endMs !== seg.startMs);
}

/**
 * Every event of the attempt, in time order: each phase that starts before the end (or at it,
 * when it lasts zero seconds), up to the failing phase of a failed attempt, then the end.
 */
export function scheduleEvents(schedule: Schedule, withSteps = true): ScheduleEvent[] {
  const events: ScheduleEvent[] = [];
  let steps = 0;
  for (const seg of schedule.segments) {
    if (startsPastEnd(seg, schedule.endMs)) break;
    events.push({ at: seg.startMs, kind: 'phase', phase: seg.name });
    const stepMs = seg.steps > 0 ? (seg.endMs - seg.startMs) / seg.steps : 0;
    for (let i = 1; withSteps && i <= seg.steps; i++) {
      const at = Math.round(seg.startMs + i * stepMs);
      // A failure at the instant of zero-second steps still stops after `stepsAtEnd` of them.
      if (at > schedule.endMs || (schedule.failed && steps >= schedule.stepsAtEnd)) break;
      steps += 1;
      events.push({ at, kind: 'step', phase: seg.name, step: i, of: seg.steps });
    }
    if (seg.name === schedule.failedPhase) break;
  }
  events.push({
    at: schedule.endMs,
    kind: 'end',
    outcome: schedule.failed ? 'failed' : 'succeeded',
    phase: endPhase(schedule) ?? '',
  });
  return events;
}

/**
 * `scheduleEvents(schedule)[0].at` without building the list (a long run has thousands): the first
 * phase's start, unless it starts after the end (or at it, lasting longer), then the end.
 */
export function firstEventAt(schedule: Schedule): number {
  const first = schedule.segments[0];
  return first && !startsPastEnd(first, schedule.endMs) ? first.startMs : schedule.endMs;
}

/** The phase the attempt ends in: the failing one, or the last phase on success. */
export function endPhase(schedule: Schedule): string | null {
  if (schedule.failed) return schedule.failedPhase ?? null;
  return schedule.segments.at(-1)?.name ?? null;
}

/** The phase running at `t`, or null in the queue. */
export function phaseAt(schedule: Schedule, t: number): string | null {
  if (t < schedule.queueEndMs) return null;
  const seg = schedule.segments.find((s) => t >= s.startMs && t < s.endMs);
  return seg?.name ?? schedule.segments.at(-1)?.name ?? null;
}

/** Steps completed by `t` (never past the end of the attempt). */
export function stepsAt(schedule: Schedule, t: number): number {
  if (t >= schedule.endMs) return schedule.stepsAtEnd;
  let done = 0;
  for (const seg of schedule.segments) {
    if (seg.steps === 0 || t < seg.startMs) continue;
    const stepMs = (seg.endMs - seg.startMs) / seg.steps;
    // Zero-second steps all complete at the phase's start.
    done +=
      stepMs === 0 ? seg.steps : Math.min(seg.steps, Math.floor((t - seg.startMs) / stepMs + 1e-9));
  }
  return done;
}

/** Progress, 0 to 1: the time since the queue over the planned run's; 1 only on success. */
export function progressAt(schedule: Schedule, t: number): number {
  const plannedEnd = schedule.segments.at(-1)?.endMs ?? schedule.queueEndMs;
  if (!schedule.failed && t >= schedule.endMs) return 1;
  const clamped = Math.min(t, schedule.endMs);
  if (clamped <= schedule.queueEndMs || plannedEnd <= schedule.queueEndMs) return 0;
  const p = (clamped - schedule.queueEndMs) / (plannedEnd - schedule.queueEndMs);
  return Math.min(0.99, Math.floor(p * 10000) / 10000);
}
