import { sameJson } from '../../core/same-json.js';
import type { RunState } from '../records.js';
import type { Schedule } from '../timeline/schedule.js';

/**
 * A run's state as the runs table holds it: JSON, with the attempt's schedule written as tuples
 * of offsets from its start (docs/development.md, "Why it is fast": the schedule's field names and
 * 13-digit instants were a third of a run's row). It reads back to the same object, key order
 * included; a schedule whose segments do not follow each other is written as it is.
 */
type ScheduleTuple = [
  startMs: number,
  queueMs: number,
  segments: [name: string, ms: number, steps: number][],
  endOffset: number,
  failedPhase: string | null,
  stepsAtEnd: number,
];

/** @example stateToText(record.state) */
export function stateToText(state: RunState): string {
  const schedule = state.run?.schedule;
  const tuple = schedule && toTuple(schedule);
  if (!tuple) return JSON.stringify(state);
  return JSON.stringify({ ...state, run: { ...state.run, schedule: tuple } });
}

/** @example stateFromText(row.state) */
export function stateFromText(text: string): RunState {
  const state = JSON.parse(text) as RunState;
  const schedule: unknown = state.run?.schedule;
  if (Array.isArray(schedule)) state.run!.schedule = fromTuple(schedule as ScheduleTuple);
  return state;
}

function toTuple(s: Schedule): ScheduleTuple | undefined {
  let at = s.queueEndMs;
  for (const seg of s.segments) {
    if (seg.startMs !== at) return undefined;
    at = seg.endMs;
  }
  const tuple: ScheduleTuple = [
    s.startMs,
    s.queueEndMs - s.startMs,
    s.segments.map((seg) => [seg.name, seg.endMs - seg.startMs, seg.steps]),
    s.endMs - s.startMs,
    s.failedPhase ?? null,
    s.stepsAtEnd,
  ];
  // Anything else a schedule could hold (extra fields, a failure without its phase) stays JSON.
  return sameJson(fromTuple(tuple), s) ? tuple : undefined;
}

function fromTuple([
  startMs,
  queueMs,
  tuples,
  endOffset,
  failedPhase,
  stepsAtEnd,
]: ScheduleTuple): Schedule {
  let at = startMs + queueMs;
  let totalSteps = 0;
  const segments = tuples.map(([name, ms, steps]) => {
    const seg = { name, startMs: at, endMs: at + ms, steps };
    at += ms;
    totalSteps += steps;
    return seg;
  });
  // The key order of buildSchedule (domain/run-schedule.ts).
  const base = { startMs, queueEndMs: startMs + queueMs, segments, totalSteps };
  const endMs = startMs + endOffset;
  return failedPhase === null
    ? { ...base, endMs, failed: false, stepsAtEnd }
    : { ...base, endMs, failed: true, failedPhase, stepsAtEnd };
}
