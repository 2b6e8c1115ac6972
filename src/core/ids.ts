import { encodeTime } from 'ulid';
import { seededBytes } from './prng.js';

/** An id prefix (DESIGN.md section 3): `acct`, `key`, `whe`, `evt`, `req`, ... and each kind's. */
export type IdPrefix = string;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The Crockford base32 digits' character codes, to build an id with one string allocation. */
const CROCKFORD_CODES: readonly number[] = Array.from(CROCKFORD, (c) => c.charCodeAt(0));
/** The largest time a ULID holds (48 bits); `encodeTime` throws above it, as before. */
const TIME_MAX = 2 ** 48 - 1;

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

/**
 * `<prefix>_<ULID>` of a time and the first 10 bytes of `bytes`: 10 Crockford base32 characters
 * of the time, then 16 of the 80 random bits, eight per 40-bit half (a double holds it exactly).
 * The 26 characters are written as codes into one small array and made a string once, not built
 * a character at a time (each step a new string: ~0.8 KB a request id, docs/development.md).
 */
export function idOf(prefix: IdPrefix, timeMs: number, bytes: Buffer): string {
  const time = Math.max(0, Math.floor(timeMs));
  // NaN or too large: `encodeTime` throws the error it always threw.
  if (!(time <= TIME_MAX)) return encodeTime(time, 10);
  const codes = new Uint16Array(26);
  let value = time;
  for (let i = 9; i >= 0; i--) {
    const mod = value % 32;
    codes[i] = CROCKFORD_CODES[mod] as number;
    value = (value - mod) / 32;
  }
  value = bytes.readUIntBE(0, 5);
  for (let i = 17; i >= 10; i--) {
    codes[i] = CROCKFORD_CODES[value % 32] as number;
    value = Math.floor(value / 32);
  }
  value = bytes.readUIntBE(5, 5);
  for (let i = 25; i >= 18; i--) {
    codes[i] = CROCKFORD_CODES[value % 32] as number;
    value = Math.floor(value / 32);
  }
  // Each code an argument: `fromCharCode.apply` over the array took 1,200 instructions more an id.
  const c = codes;
  // biome-ignore format: 26 arguments, a line each, would hide the function
  return `${prefix}_${String.fromCharCode(
    c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, c[9]!, c[10]!, c[11]!, c[12]!,
    c[13]!, c[14]!, c[15]!, c[16]!, c[17]!, c[18]!, c[19]!, c[20]!, c[21]!, c[22]!, c[23]!, c[24]!,
    c[25]!,
  )}`;
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
