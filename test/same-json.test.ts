/**
 * `sameJson` (core/same-json.ts) answers what comparing the two `JSON.stringify` texts answers,
 * for any plain data: key order, keys left out (undefined, functions), `null` for what an array
 * cannot hold, numbers that are not finite, -0.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { sameJson } from '../src/core/same-json.js';

const leaf = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    0,
    true,
    false,
    () => 1,
  ),
  fc.integer({ min: -3, max: 3 }),
  fc.double(),
  fc.string({ maxLength: 3 }),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 4 }),
}));

/** A deep copy of the data, its objects' keys in reverse order when asked (texts then differ). */
function copy(v: unknown, reverse: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => copy(x, reverse));
  if (typeof v !== 'object' || v === null) return v;
  const entries = Object.entries(v).map(([k, x]) => [k, copy(x, reverse)] as const);
  return Object.fromEntries(reverse ? entries.reverse() : entries);
}

function agrees(a: unknown, b: unknown): void {
  const texts = `${JSON.stringify(a)} / ${JSON.stringify(b)}`;
  expect(sameJson(a, b), texts).toBe(JSON.stringify(a) === JSON.stringify(b));
}

test('it agrees with comparing the JSON texts: unrelated values, copies and reorderings', () => {
  fc.assert(
    fc.property(value, value, (a, b) => {
      agrees(a, b);
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(value, (a) => {
      agrees(a, copy(a, false));
      agrees(a, copy(a, true));
    }),
    { numRuns: 2000, examples: [[{ a: 1, b: undefined }], [[undefined, () => 1, Number.NaN]]] },
  );
});

test('the cases JSON writes alike or apart', () => {
  expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  expect(sameJson([undefined], [null])).toBe(true);
  expect(sameJson(Number.NaN, null)).toBe(true);
  expect(sameJson(-0, 0)).toBe(true);
  expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
  expect(sameJson([], {})).toBe(false);
  expect(sameJson({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false);
});
