/** `toTimestamp` (src/core/timestamp.ts): RFC 3339 UTC with milliseconds (DESIGN.md section 3). */
import { expect, test } from 'vitest';
import { toTimestamp } from '../../src/core/timestamp.js';

test('an instant is written as RFC 3339 UTC with milliseconds', () => {
  expect(toTimestamp(0)).toBe('1970-01-01T00:00:00.000Z');
  expect(toTimestamp(Date.UTC(2026, 10, 22, 9, 30))).toBe('2026-11-22T09:30:00.000Z');
  expect(toTimestamp(Date.UTC(2000, 1, 29, 23, 59, 59, 999))).toBe('2000-02-29T23:59:59.999Z');
  expect(toTimestamp(Date.UTC(2026, 0, 1, 0, 0, 0, 7))).toBe('2026-01-01T00:00:00.007Z');
  expect(toTimestamp(253402300799999)).toBe('9999-12-31T23:59:59.999Z');
});

test('an invalid instant throws a RangeError', () => {
  expect(() => toTimestamp(Number.NaN)).toThrow(RangeError);
  expect(() => toTimestamp(9e15)).toThrow(RangeError);
});
