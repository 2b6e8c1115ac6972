/**
 * The stored form of a run's state (store/state-codec.ts) packs the attempt's schedule: reading
 * it back gives the state written, to the byte of its JSON (key order included), for any
 * schedule `buildSchedule` makes; a schedule it cannot pack, and a state without one, are kept
 * as they are. The JSON is stored packed (store/packed-text.ts); a row of JSON text, as written
 * before, reads the same.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { RunState } from '../../src/domain/records.js';
import { unpackText } from '../../src/store/packed-text.js';
import { decodeState, encodeState } from '../../src/store/state-codec.js';
import { anySchedule } from '../domain/schedule-arbitrary.js';

const stateWith = (schedule: unknown): RunState =>
  ({
    status: 'processing',
    tokens: { charged: 1, refunded: 0 },
    run: {
      attempt: 2,
      schedule,
      outcome: { succeed: {} },
      estimate: 1,
      cancel: null,
      appliedUntil: 5,
    },
  }) as unknown as RunState;

test('a state read back is the state written, for any schedule buildSchedule makes', () => {
  fc.assert(
    fc.property(anySchedule(1), (schedule) => {
      const state = stateWith(schedule);
      const stored = encodeState(state, 'evaluation');
      expect(JSON.stringify(decodeState(stored))).toBe(JSON.stringify(state));
      expect(unpackText(stored).length).toBeLessThan(JSON.stringify(state).length);
      // A row written before packing holds the text: it reads the same.
      expect(JSON.stringify(decodeState(unpackText(stored)))).toBe(JSON.stringify(state));
    }),
    { numRuns: 500 },
  );
});

test('a schedule whose segments do not follow each other, or no attempt at all, is kept as it is', () => {
  const odd = stateWith({
    startMs: 0,
    queueEndMs: 10,
    segments: [{ name: 'a', startMs: 20, endMs: 30, steps: 0 }],
    totalSteps: 0,
    endMs: 30,
    failed: false,
    stepsAtEnd: 0,
  });
  expect(unpackText(encodeState(odd, 'evaluation'))).toBe(JSON.stringify(odd));
  expect(decodeState(encodeState(odd, 'evaluation'))).toEqual(odd);
  const seeded = { status: 'failed', tokens: { charged: 0, refunded: 0 } } as unknown as RunState;
  expect(unpackText(encodeState(seeded, 'twin'))).toBe(JSON.stringify(seeded));
});
