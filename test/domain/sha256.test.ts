import { expect, test } from 'vitest';
import { digestSecret, sha256, sha256Hex } from '../../src/core/sha256.js';

// Known vectors: FIPS 180-4 examples and the digest of the empty string.
const vectors: [string, string][] = [
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  [
    'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  ],
];

test('sha256 and sha256Hex give the known digests of strings and bytes', () => {
  for (const [text, hex] of vectors) {
    expect(sha256Hex(text)).toBe(hex);
    expect(sha256(text).toString('hex')).toBe(hex);
    expect(sha256Hex(Buffer.from(text))).toBe(hex);
    expect(sha256(Buffer.from(text, 'utf8')).toString('hex')).toBe(hex);
  }
});

test('a string is hashed as its UTF-8 bytes', () => {
  expect(sha256Hex('é')).toBe(sha256Hex(Uint8Array.of(0xc3, 0xa9)));
  expect(digestSecret('é').equals(sha256(Buffer.from('é', 'utf8')))).toBe(true);
});
