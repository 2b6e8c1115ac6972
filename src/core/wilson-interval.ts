/** The two-sided 95% standard normal quantile, Φ⁻¹(0.975). */
const Z_95 = 1.959963984540054;

/**
 * The Wilson score interval for a binomial proportion (95% by default): unlike the normal
 * approximation it stays in [0, 1] and is sensible for 0 or n successes and small n. Null when
 * `n` is 0; bounds clamped to [0, 1] and rounded half away from zero to 6 places. Throws a
 * `RangeError` unless 0 <= successes <= n are integers and `z` is finite and positive.
 * @example wilsonInterval(5, 10) // [0.236593, 0.763407]
 */
export function wilsonInterval(successes: number, n: number, z = Z_95): [number, number] | null {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`wilsonInterval: n must be a non-negative integer, got ${n}`);
  if (!Number.isSafeInteger(successes) || successes < 0 || successes > n)
    throw new RangeError(`wilsonInterval: successes must be an integer in [0, ${n}]`);
  if (!Number.isFinite(z) || z <= 0)
    throw new RangeError(`wilsonInterval: z must be finite and positive, got ${z}`);
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return [round6(clamp01(centre - halfWidth)), round6(clamp01(centre + halfWidth))];
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
