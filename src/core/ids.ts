import { encodeTime } from 'ulid';
import { seededBytes } from './prng.js';

/** An id prefix (DESIGN.md section 3): `acct`, `key`, `whe`, `evt`, `req`, ... and each kind's. */
export type IdPrefix = string;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 80 bits as 16 Crockford base32 characters, eight per 40-bit half (a double holds it exactly). */
function encodeRandom(bytes: Buffer): string {
  let out = '';
  for (let value of [bytes.readUIntBE(5, 5), bytes.readUIntBE(0, 5)]) {
    for (let i = 0; i < 8; i++) {
      out = CROCKFORD[value % 32] + out;
      value = Math.floor(value / 32);
    }
  }
  return out;
}

/**
 * `<prefix>_<ULID>`: time from the virtual clock, randomness from the seed, stream and counter.
 * @example makeId('evt', Date.parse('2026-01-01T00:00:00Z'), '0', 'acct_1', 7)
 */
export function makeId(
  prefix: IdPrefix,
  timeMs: number,
  seed: string,
  stream: string,
  counter: number,
): string {
  return idOf(prefix, timeMs, seededBytes(seed, stream, counter));
}

/** `<prefix>_<ULID>` of a time and 10 random bytes. */
export function idOf(prefix: IdPrefix, timeMs: number, bytes: Buffer): string {
  return `${prefix}_${encodeTime(Math.max(0, Math.floor(timeMs)), 10)}${encodeRandom(bytes)}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `prefix` + 32 base62 characters of seeded bytes. */
function secretOf(prefix: string, bytes: Buffer): string {
  let out = prefix;
  for (const byte of bytes) out += BASE62[byte % 62];
  return out;
}

/** A key secret `svc_test_` + 32 base62 characters, deterministic per seed, stream and counter. */
export function makeSecret(seed: string, stream: string, counter: number): string {
  return secretOf('svc_test_', seededBytes(seed, `${stream}/secret`, counter, 32));
}

/**
 * A webhook endpoint's signing secret `whsec_` + 32 base62 characters (inferred, DESIGN.md
 * section 3), derived from the seed and the endpoint's id: shown once at creation, never stored.
 * @example makeWebhookSecret('0', 'whe_01KDVMMVA8MKDG6SDMPFW7GANV')
 */
export function makeWebhookSecret(seed: string, endpointId: string): string {
  return secretOf('whsec_', seededBytes(seed, `${endpointId}/signing-secret`, 0, 32));
}
