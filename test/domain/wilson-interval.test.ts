import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/core/wilson-interval.js';

/**
 * An independent, textbook form of the Wilson interval:
 * (n·p + z²/2 ± z·√(n·p·(1-p) + z²/4)) / (n + z²), clamped and rounded like the code under test.
 */
function reference(successes: number, n: number, z = 1.959963984540054): [number, number] {
  const p = successes / n;
  const spread = z * Math.sqrt(n * p * (1 - p) + (z * z) / 4);
  const mid = n * p + (z * z) / 2;
  const scale = n + z * z;
  const fix = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1e6) / 1e6;
  return [fix((mid - spread) / scale), fix((mid + spread) / scale)];
}

describe('wilsonInterval', () => {
  it('is null for zero trials', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('matches the published values', () => {
    expect(wilsonInterval(0, 10)).toEqual([0, 0.277533]);
    expect(wilsonInterval(10, 10)).toEqual([0.722467, 1]);
    expect(wilsonInterval(5, 10)).toEqual([0.236593, 0.763407]);
    expect(wilsonInterval(1, 1)).toEqual([0.206549, 1]);
  });

  it('matches the independent formula for 81 of 263', () => {
    const interval = wilsonInterval(81, 263);
    expect(interval).toEqual(reference(81, 263));
    // Computed separately in double precision: [0.2552885198782742, 0.36620957698280004].
    expect(interval).toEqual([0.255289, 0.36621]);
    const [low, high] = interval!;
    expect(low).toBeCloseTo(0.254, 2);
    expect(high).toBeCloseTo(0.366, 2);
  });

  it('matches the independent formula and stays ordered inside [0, 1]', () => {
    const trials = fc
      .integer({ min: 1, max: 100_000 })
      .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));
    fc.assert(
      fc.property(trials, ([successes, n]) => {
        const interval = wilsonInterval(successes, n);
        expect(interval).not.toBeNull();
        const [low, high] = interval!;
        // Both forms are algebraically equal; float noise may flip the sixth decimal at most.
        const [refLow, refHigh] = reference(successes, n);
        expect(Math.abs(low - refLow)).toBeLessThanOrEqual(1.0000001e-6);
        expect(Math.abs(high - refHigh)).toBeLessThanOrEqual(1.0000001e-6);
        expect(0 <= low && low <= successes / n && successes / n <= high && high <= 1).toBe(true);
        expect(Math.round(low * 1e6) / 1e6).toBe(low);
      }),
    );
  });

  it('is symmetric between successes and failures', () => {
    const [low, high] = wilsonInterval(3, 17)!;
    const [mirrorLow, mirrorHigh] = wilsonInterval(14, 17)!;
    expect(low).toBeCloseTo(1 - mirrorHigh, 6);
    expect(high).toBeCloseTo(1 - mirrorLow, 6);
  });

  it('widens with a larger z', () => {
    const [low95, high95] = wilsonInterval(5, 10)!;
    const [low99, high99] = wilsonInterval(5, 10, 2.5758293035489004)!;
    expect(low99).toBeLessThan(low95);
    expect(high99).toBeGreaterThan(high95);
  });

  it.each([
    [-1, 10, undefined],
    [11, 10, undefined],
    [1.5, 10, undefined],
    [0, -1, undefined],
    [0, Number.NaN, undefined],
    [1, 10, 0],
    [1, 10, Number.POSITIVE_INFINITY],
  ])('rejects successes=%s n=%s z=%s', (successes, n, z) => {
    expect(() => wilsonInterval(successes, n, z)).toThrow(RangeError);
  });
});
