import type { RunState } from '../records.js';
import { type Schedule, scheduleOf } from '../timeline/schedule.js';

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

/** A schedule's keys in their order (`scheduleOf`, timeline/schedule.ts). */
const SCHEDULE_KEYS = [
  'startMs',
  'queueEndMs',
  'segments',
  'totalSteps',
  'endMs',
  'failed',
  'stepsAtEnd',
];
const FAILED_KEYS = [...SCHEDULE_KEYS.slice(0, 6), 'failedPhase', 'stepsAtEnd'];
const SEGMENT_KEYS = ['name', 'startMs', 'endMs', 'steps'];

/** Whether the object's own keys are these, in this order. */
function keysAre(o: object, expected: readonly string[]): boolean {
  const keys = Object.keys(o);
  if (keys.length !== expected.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== expected[i]) return false;
  return true;
}

/** An integer JSON writes as it is and offsets keep exact: instants, lengths, steps. */
const whole = (v: unknown): v is number => Number.isSafeInteger(v);

/**
 * The schedule as tuples when they read back to it exactly, key order included (what
 * `fromTuple` builds: each segment starting where the one before ends, its keys and values of
 * buildSchedule's kind); anything else a schedule could hold (an extra field, a failure without
 * its phase, an instant that is not an integer) stays JSON. Asked of its keys and values: reading
 * the tuples back and comparing was about an eighth of a resume's instructions.
 */
function toTuple(s: Schedule): ScheduleTuple | undefined {
  const failed = s.failed === true && typeof s.failedPhase === 'string';
  if (!keysAre(s, failed ? FAILED_KEYS : SCHEDULE_KEYS)) return undefined;
  if (!failed && s.failed !== false) return undefined;
  if (!whole(s.startMs) || !whole(s.queueEndMs) || !whole(s.endMs) || !whole(s.stepsAtEnd))
    return undefined;
  if (!Array.isArray(s.segments)) return undefined;
  let at = s.queueEndMs;
  let steps = 0;
  const segments: ScheduleTuple[2] = [];
  for (const seg of s.segments as unknown[]) {
    if (typeof seg !== 'object' || seg === null || !keysAre(seg, SEGMENT_KEYS)) return undefined;
    const { name, startMs, endMs, steps: n } = seg as Schedule['segments'][number];
    if (typeof name !== 'string' || startMs !== at || !whole(endMs) || !whole(n)) return undefined;
    segments.push([name, endMs - startMs, n]);
    at = endMs;
    steps += n;
  }
  if (steps !== s.totalSteps) return undefined;
  const { startMs } = s;
  const failedPhase = failed ? (s.failedPhase as string) : null;
  return [startMs, s.queueEndMs - startMs, segments, s.endMs - startMs, failedPhase, s.stepsAtEnd];
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
  const endMs = startMs + endOffset;
  return scheduleOf(
    startMs,
    startMs + queueMs,
    segments,
    totalSteps,
    endMs,
    failedPhase,
    stepsAtEnd,
  );
}
