import { deflateRawSync } from 'node:zlib';
import { inflateSync } from 'fflate';
import { DICTIONARY_TEXT } from './dictionaries.js';

/**
 * Text the store keeps packed (issue 12 item 4): a succeeded run's state and an `Idempotency-Key`
 * replay's body, raw DEFLATE with a preset dictionary of what such text repeats
 * (store/dictionaries.ts). A succeeded run's state of about 1.1 KB keeps about 140 bytes, a
 * create's body of about 870 about 70. With `--db :memory:` the whole database is in the process:
 * this was most of the world's memory.
 *
 * A packed value is a BLOB: byte 0 is 0 (no JSON text starts with it), byte 1 the dictionary's
 * id, then the unpacked length in bytes (LEB128), then the DEFLATE stream. Rows written before
 * hold the text itself and are read as they are. Node's zlib packs (about 12 us); fflate unpacks
 * into a buffer of the known length (about 4 us, against 5 to 18 for zlib's stream machinery).
 * The bytes the API answers are the text's, whatever zlib build packed it.
 */
export function packText(text: string | Uint8Array, dictionaryId: number): Buffer {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const packed = deflateRawSync(bytes, optionsOf(dictionaryId).deflate);
  const head: number[] = [0, dictionaryId];
  for (let n = bytes.length; ; n = Math.floor(n / 128)) {
    if (n < 128) {
      head.push(n);
      break;
    }
    head.push((n % 128) | 128);
  }
  const out = Buffer.allocUnsafe(head.length + packed.length);
  out.set(head, 0);
  packed.copy(out, head.length);
  return out;
}

/** Whether a stored value is packed (`packText`) rather than the text itself. */
export function isPacked(stored: string | Uint8Array): stored is Uint8Array {
  return typeof stored !== 'string' && stored.length > 2 && stored[0] === 0;
}

/** The text `packText` was given; a value not packed is read as UTF-8 text. */
export function unpackText(stored: string | Uint8Array): string {
  if (typeof stored === 'string') return stored;
  return unpackBytes(stored).toString('utf8');
}

/** The bytes `packText` was given (as UTF-8 if text); a value not packed is read as it is. */
export function unpackBytes(stored: Uint8Array): Buffer {
  if (!isPacked(stored)) return Buffer.from(stored);
  const { dictionary } = optionsOf(stored[1]!).deflate;
  let length = 0;
  let at = 2;
  for (let scale = 1; ; scale *= 128) {
    const byte = stored[at++]!;
    length += (byte & 127) * scale;
    if (byte < 128) break;
  }
  const out = inflateSync(stored.subarray(at), {
    out: new Uint8Array(length),
    ...(dictionary ? { dictionary } : {}),
  });
  if (out.length !== length) throw new Error('packed text: a value unpacked to the wrong length');
  return Buffer.from(out.buffer, out.byteOffset, out.length);
}

// Level 1: level 6 packs a state a few bytes smaller and a third slower. A window of 2^13 bytes
// holds a dictionary and what is packed after it.
const WINDOW_BITS = 13;

interface Options {
  deflate: { level: number; windowBits: number; dictionary?: Buffer };
}

/** Each dictionary's zlib options, made once: id 0 packs without a dictionary. */
const OPTIONS: Readonly<Record<number, Options>> = Object.fromEntries(
  [0, ...Object.keys(DICTIONARY_TEXT).map(Number)].map((id) => {
    const parts = DICTIONARY_TEXT[id];
    const dict = parts ? { dictionary: Buffer.from(parts.join(''), 'utf8') } : {};
    return [id, { deflate: { level: 1, windowBits: WINDOW_BITS, ...dict } }];
  }),
);

function optionsOf(id: number): Options {
  const options = OPTIONS[id];
  if (!options) throw new Error(`packed text: no dictionary ${id} (written by a newer emulator?)`);
  return options;
}
