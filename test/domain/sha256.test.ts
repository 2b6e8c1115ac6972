import * as crypto from 'node:crypto';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { sha256 } from '../../src/domain/sha256.js';
import { sha256Block } from '../../src/domain/sha256-block.js';

const native = (data: string) => crypto.createHash('sha256').update(data).digest('hex');

test('the one-block digest equals Node crypto for every length up to the block, and gives way after', () => {
  for (let n = 0; n <= 80; n++) {
    for (const ch of ['a', '\0', '~', '0']) {
      const text = ch.repeat(n);
      expect(sha256(text).toString('hex')).toBe(native(text));
      expect(sha256Block(text) === undefined).toBe(n > 55);
    }
  }
  expect(sha256Block('é')).toBeUndefined();
  expect(sha256('é').toString('hex')).toBe(native('é'));
  expect(sha256('0\0requests\x001').toString('hex')).toBe(native('0\0requests\x001'));
});

test('the one-block digest equals Node crypto for any ASCII or other string', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 70 }), fc.string()),
      (text) => {
        expect(sha256(text).toString('hex')).toBe(native(text));
      },
    ),
    { numRuns: 20_000 },
  );
});
