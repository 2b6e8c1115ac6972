import { encodeTime } from 'ulid';
import { seededBytes } from './prng.js';

/** Id prefixes of DESIGN.md section 3. */
export const ID_PREFIXES = [
  'acct',
  'key',
  'eval',
  'srun',
  'twin',
  'scn',
  'whe',
  'evt',
  'req',
  'env',
  'obj',
  'flt',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * 80 bits -> 16 Crockford base32 characters, most significant first. Each 40-bit half (five
 * bytes, eight characters) fits a double exactly, so no BigInt is needed: ids are made on
 * every request (`req_`), and this is several times faster than BigInt arithmetic.
 */
function encodeRandom(bytes: Buffer): string {
  return encode40(bytes.readUIntBE(0, 5)) + encode40(bytes.readUIntBE(5, 5));
}

/** A 40-bit integer as eight Crockford base32 characters. */
function encode40(value: number): string {
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = CROCKFORD[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

/**
 * Builds `<prefix>_<ULID>`: the time part from the virtual clock, the random part from the seed,
 * the stream and the stream's counter. Same seed + same stream + same counter = same id.
 * @example makeId('eval', Date.parse('2026-01-01T00:00:00Z'), '0', 'acct_1', 7)
 */
export function makeId(
  prefix: IdPrefix,
  timeMs: number,
  seed: string,
  stream: string,
  counter: number,
): string {
  return `${prefix}_${encodeTime(Math.max(0, Math.floor(timeMs)), 10)}${encodeRandom(seededBytes(seed, stream, counter))}`;
}

/** True for `<prefix>_` + 26 Crockford characters. */
export function isIdOf(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`).test(value);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A key secret `svc_test_` + 32 base62 characters, deterministic per seed, stream and counter. */
export function makeSecret(seed: string, stream: string, counter: number): string {
  const bytes = seededBytes(seed, `${stream}/secret`, counter, 32);
  let out = 'svc_test_';
  for (const byte of bytes) out += BASE62[byte % 62];
  return out;
}
