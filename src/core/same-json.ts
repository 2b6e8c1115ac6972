/**
 * Whether two values of plain data would be written as the same JSON text, key order included,
 * without writing either (`JSON.stringify(a) === JSON.stringify(b)`, which run-state-text.ts
 * asked of every run state it saved: a schedule written twice, about 9 us).
 */

/** What `JSON.stringify` leaves out of an object and writes as `null` in an array. */
const unwritten = (v: unknown) =>
  v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** A scalar as JSON sees it: a number that is not finite is `null`; undefined when not written. */
const scalar = (v: unknown) =>
  typeof v === 'number' ? (Number.isFinite(v) ? v : null) : unwritten(v) ? undefined : v;

/** An object's keys that JSON writes, in order. */
const writtenKeys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => !unwritten(o[k]));

/** @example sameJson({ a: 1, b: undefined }, { a: 1 }) // true */
export function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null)
    return scalar(a) === scalar(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const x: unknown = a[i];
      const y: unknown = b[i];
      if (!sameJson(unwritten(x) ? null : x, unwritten(y) ? null : y)) return false;
    }
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = writtenKeys(ra);
  const kb = writtenKeys(rb);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !sameJson(ra[k], rb[k])) return false;
  }
  return true;
}
