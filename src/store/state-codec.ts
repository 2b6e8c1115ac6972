import type { RunState } from '../domain/records.js';
import type { Schedule } from '../domain/run-schedule.js';
import { STATE_DICTIONARY } from './dictionaries.js';
import { packText, unpackText } from './packed-text.js';

/**
 * A run's state as the store writes it (issue 12 items 2 and 4): as JSON, with the attempt's
 * schedule packed (and, once the run has succeeded, the whole packed with its kind's dictionary:
 * `encodeState`). The schedule was about 40% of a run's row: a 13-digit instant per segment
 * boundary and each field's name per segment. Packed, instants are offsets from the attempt's
 * start and segments are tuples, which round-trip to the same object (key order included);
 * a schedule whose segments do not follow each other is stored as it is, and rows written
 * before are read as they are.
 */
type Packed = [
  startMs: number,
  queueMs: number,
  segments: [name: string, ms: number, steps: number][],
  endOffset: number,
  failed: 0 | 1,
  failedPhase: string | null,
  stepsAtEnd: number,
  totalSteps: number,
];

function pack(s: Schedule): Packed | Schedule {
  let at = s.queueEndMs;
  for (const seg of s.segments) {
    if (seg.startMs !== at) return s;
    at = seg.endMs;
  }
  return [
    s.startMs,
    s.queueEndMs - s.startMs,
    s.segments.map((seg) => [seg.name, seg.endMs - seg.startMs, seg.steps]),
    s.endMs - s.startMs,
    s.failed ? 1 : 0,
    s.failedPhase ?? null,
    s.stepsAtEnd,
    s.totalSteps,
  ];
}

function unpack(p: Packed): Schedule {
  const [startMs, queueMs, packed, endOffset, failed, failedPhase, stepsAtEnd, totalSteps] = p;
  let at = startMs + queueMs;
  const segments = packed.map(([name, ms, steps]) => {
    const seg = { name, startMs: at, endMs: at + ms, steps };
    at += ms;
    return seg;
  });
  // The key order buildSchedule gives (domain/run-schedule.ts).
  const base = { startMs, queueEndMs: startMs + queueMs, segments, totalSteps };
  return failed
    ? {
        ...base,
        endMs: startMs + endOffset,
        failed: true,
        ...(failedPhase === null ? {} : { failedPhase }),
        stepsAtEnd,
      }
    : { ...base, endMs: startMs + endOffset, failed: false, stepsAtEnd };
}

/**
 * The state as stored: its JSON, packed with the dictionary of the run's kind once the run has
 * succeeded, after which nothing writes it again. Any other state stays text: a moving one is
 * written at each phase (packing costs about 12 us a write), and a failed or canceled one is
 * what a resume reads and replaces (unpacking and the row growing back cost it about 15 us).
 */
export function encodeState(state: RunState, kind: string): string | Buffer {
  const run = state.run;
  const text = run
    ? JSON.stringify({ ...state, run: { ...run, schedule: pack(run.schedule) } })
    : JSON.stringify(state);
  return state.status === 'succeeded' ? packText(text, STATE_DICTIONARY[kind] ?? 0) : text;
}

/** A state read back, packed or text: what `encodeState` was given (or a row written before it). */
export function decodeState(stored: string | Uint8Array): RunState {
  return restoreState(JSON.parse(unpackText(stored)) as RunState);
}

/** A stored state already parsed, its schedule unpacked in place. */
export function restoreState(state: RunState): RunState {
  const schedule = state.run?.schedule as Schedule | Packed | undefined;
  if (Array.isArray(schedule)) state.run!.schedule = unpack(schedule);
  return state;
}
