/**
 * The recording's answered calls, in chunks of memory outside the JS heap (recorder.ts). Holding
 * each call as objects (its header strings, its answer's) kept them alive through every garbage
 * collection until the bundle was read: about half of `GET /v1/keys/me`'s collection time with
 * the recording on, and mark-compact pauses of hundreds of milliseconds as the recording grew.
 * A call is read back only when a bundle is made.
 *
 * A call is one record: its byte length, its numbers, the UTF-16 lengths of its strings (-1 for
 * null), then the strings one after the other as UTF-8. Header lists are joined by newlines,
 * which no header name or value can hold.
 */

import type { HeldAnswer } from './answer.js';
import type { CallKind } from './bundle-contract.js';

/** A call being recorded, while it is under way (recorder.ts). */
export interface PendingCall {
  n: number;
  /** The mark it was recorded under: a mark taken while it was under way drops it. */
  mark: number;
  kind: CallKind;
  method: string;
  path: string;
  /** As Node's flat list of names and values, secrets labelled. */
  headers: readonly string[];
  body: string | null;
  account: string | null;
  creates_account: string | null;
  overlapped: boolean;
  /** Attempts started and answered since the mark when the call arrived. */
  startedBefore: number;
  answeredBefore: number;
}

/** An answered call as read back: the call, the attempts when it was answered, its answer. */
export interface StoredCall extends Omit<PendingCall, 'mark'> {
  startedAfter: number;
  answeredAfter: number;
  answer: HeldAnswer;
}

/** Bytes of a chunk, unless a call needs more. */
const CHUNK_BYTES = 1024 * 1024;
const NUMBERS = 8;
const STRINGS = 10;
const HEAD = 4 * (1 + NUMBERS + STRINGS);

/** A chunk of the store: its bytes, the same as 32-bit integers, and how many bytes are used. */
interface Chunk {
  bytes: Buffer;
  ints: Int32Array;
  used: number;
}

/** The strings joined by newlines (a loop: `Array.prototype.join` took twice as long). */
function lines(strings: readonly string[]): string {
  let out = strings[0] ?? '';
  for (let i = 1; i < strings.length; i++) out += `\n${strings[i]}`;
  return out;
}

export class CallStore {
  private chunks: Chunk[] = [];
  /** Answer bodies of bytes (archives), by call number: rare, and outside the heap already. */
  private readonly binaries = new Map<number, Uint8Array>();

  add(call: PendingCall, startedAfter: number, answeredAfter: number, answer: HeldAnswer): void {
    const body = answer.body;
    const binary = body instanceof Uint8Array;
    if (binary) this.binaries.set(call.n, body);
    const strings = [
      call.kind,
      call.method,
      call.path,
      lines(call.headers),
      call.body,
      call.account,
      call.creates_account,
      answer.headers ? lines(answer.headers) : null,
      answer.path,
      binary ? null : body,
    ];
    // The answer's body, last and mostly the longest, is written on its own: joined to the rest
    // it would be copied once more.
    const answerBody = strings[STRINGS - 1] ?? '';
    let text = '';
    for (let i = 0; i < STRINGS - 1; i++) text += strings[i] ?? '';
    // A UTF-16 unit takes at most 3 bytes in UTF-8; a record starts at a multiple of 4. A call
    // longer than a chunk is counted exactly: its chunk is its own, and kept as long as the rest.
    let most = HEAD + (text.length + answerBody.length) * 3 + 3;
    if (most > CHUNK_BYTES)
      most = HEAD + Buffer.byteLength(text) + Buffer.byteLength(answerBody) + 3;
    let chunk = this.chunks.at(-1);
    if (!chunk || chunk.bytes.length - chunk.used < most) {
      const bytes = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, most));
      chunk = {
        bytes,
        ints: new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2),
        used: 0,
      };
      this.chunks.push(chunk);
    }
    const { bytes, ints } = chunk;
    const start = chunk.used >> 2;
    ints[start + 1] = call.n;
    ints[start + 2] = call.overlapped ? 1 : 0;
    ints[start + 3] = call.startedBefore;
    ints[start + 4] = call.answeredBefore;
    ints[start + 5] = startedAfter;
    ints[start + 6] = answeredAfter;
    ints[start + 7] = answer.status ?? -1;
    ints[start + 8] = binary ? 1 : 0;
    for (let i = 0; i < STRINGS; i++) ints[start + 1 + NUMBERS + i] = strings[i]?.length ?? -1;
    let end = chunk.used + HEAD;
    end += bytes.write(text, end);
    end += bytes.write(answerBody, end);
    ints[start] = end - chunk.used;
    chunk.used = (end + 3) & ~3;
  }

  /** Every call stored, in the order they were answered. */
  *calls(): Generator<StoredCall> {
    for (const { bytes, ints, used } of this.chunks) {
      for (let at = 0; at < used; at = (at + ints[at >> 2]! + 3) & ~3) {
        const i = at >> 2;
        const numbers = Array.from(ints.subarray(i + 1, i + 1 + NUMBERS));
        const lengths = ints.subarray(i + 1 + NUMBERS, i + 1 + NUMBERS + STRINGS);
        const text = bytes.toString('utf8', at + HEAD, at + ints[i]!);
        let from = 0;
        const s = Array.from(lengths, (length) => {
          if (length < 0) return null;
          from += length;
          return text.slice(from - length, from);
        });
        const [n, overlapped, startedBefore, answeredBefore, startedAfter, answeredAfter] = numbers;
        const status = numbers[6]!;
        const split = (joined: string | null) => (joined ? joined.split('\n') : []);
        yield {
          n: n!,
          kind: s[0] as CallKind,
          method: s[1]!,
          path: s[2]!,
          headers: split(s[3] ?? null),
          body: s[4] ?? null,
          account: s[5] ?? null,
          creates_account: s[6] ?? null,
          overlapped: overlapped === 1,
          startedBefore: startedBefore!,
          answeredBefore: answeredBefore!,
          startedAfter: startedAfter!,
          answeredAfter: answeredAfter!,
          answer: {
            status: status < 0 ? null : status,
            headers: s[7] === null ? null : split(s[7] ?? null),
            body: numbers[7] === 1 ? (this.binaries.get(n!) ?? null) : (s[9] ?? null),
            path: s[8]!,
          },
        };
      }
    }
  }

  /** The bytes of memory the chunks take. */
  get chunkBytes(): number {
    let total = 0;
    for (const { bytes } of this.chunks) total += bytes.length;
    return total;
  }

  clear(): void {
    this.chunks = [];
    this.binaries.clear();
  }
}
