import { expect, test } from 'vitest';
import { makeId, makeSecret } from '../src/core/ids.js';
import { seededBytes } from '../src/core/prng.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The straightforward 80-bit BigInt encoding the fast one in src/core/ids.ts must equal. */
function referenceRandom(bytes: Buffer): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = CROCKFORD[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

test('ids and secrets keep the values earlier versions made for the same seed', () => {
  // Recorded before request ids were made faster; a change here changes every id users see.
  expect(makeId('req', 1767225600000, '0', 's0', 0)).toBe('req_01KDVDNA00MERTT1AZM3XYCCDG');
  expect(makeSecret('0', 'x', 0)).toBe('svc_test_IM6hAzocTskRTSqOuMaPdynujW1KS4pT');
  expect(makeSecret('0', 'x', 999)).toBe('svc_test_L3yYu4ioxWqpaCYod6Jc6oSC6ZIYd8eX');
});

test('the random part of an id is the 80-bit Crockford encoding of its seeded bytes', () => {
  for (let counter = 0; counter < 2000; counter++) {
    const stream = `acct_${counter % 7}/eval`;
    const id = makeId('eval', 1767225600000 + counter, String(counter % 3), stream, counter);
    expect(id.slice(-16)).toBe(referenceRandom(seededBytes(String(counter % 3), stream, counter)));
  }
});
