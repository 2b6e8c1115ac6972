/** `toTimestamp` (src/domain/timestamp.ts) writes exactly what `Date#toISOString` writes. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { toTimestamp } from '../../src/domain/timestamp.js';

test('every instant is written as Date#toISOString writes it', () => {
  fc.assert(
    fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
      expect(toTimestamp(ms)).toBe(new Date(ms).toISOString());
    }),
    { numRuns: 20_000 },
  );
  const edges = [
    0,
    Date.UTC(2000, 1, 29, 23, 59, 59, 999),
    Date.UTC(1900 + 200, 1, 28),
    Date.UTC(2026, 0, 1),
    Date.UTC(2199, 11, 31, 23, 59, 59, 999),
    Date.UTC(2200, 0, 1),
    253402300799999,
    253402300800000,
    -1,
    1.5,
  ];
  for (const ms of edges) expect(toTimestamp(ms)).toBe(new Date(ms).toISOString());
  for (let day = 0; day < 800 * 366; day += 1) {
    const ms = day * 86_400_000 + 43_210_987;
    if (toTimestamp(ms) !== new Date(ms).toISOString())
      expect(toTimestamp(ms)).toBe(new Date(ms).toISOString());
  }
});

test('an invalid instant throws as Date does', () => {
  expect(() => toTimestamp(Number.NaN)).toThrow(RangeError);
  expect(() => toTimestamp(9e15)).toThrow(RangeError);
});
