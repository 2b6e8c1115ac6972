/**
 * The recording's answered calls, in chunks of memory outside the JS heap (recorder.ts). Holding
 * each call as objects (its header strings, its answer's) kept them alive through every garbage
 * collection until the bundle was read: about half of `GET /v1/keys/me`'s collection time with
 * the recording on, and mark-compact pauses of hundreds of milliseconds as the recording grew.
 * A call is read back only when a bundle is made.
 *
 * Calls are written in batches (`BATCH`), a batch one record: its byte length, its number of
 * calls, each call's numbers and the UTF-16 lengths of its strings (-1 for null), then all their
 * strings one after the other as UTF-8. Header lists are joined by newlines, which no header name
 * or value can hold.
 *
 * A chunk is compressed once it is full (deflate, on zlib's own threads), and its bytes are used
 * again for the next chunk: an SDK's calls repeat their headers, paths and answers, and a full
 * recording held as written took 53 MB of a server that answered `GET /v1/keys/me` (1.55x the
 * bare server's memory after the bench's load); compressed, 6 MB.
 */

import { deflateRaw, inflateRawSync } from 'node:zlib';
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

/** Bytes of a chunk, unless a batch needs more. */
const CHUNK_BYTES = 1024 * 1024;
const NUMBERS = 8;
const STRINGS = 10;
/** A call's numbers and its strings' lengths. */
const SLOTS = NUMBERS + STRINGS;
/**
 * Calls encoded together: one string, one write into a chunk. Each write's own cost (flattening
 * the joined string, the call into Node) was about a third of a call's recording; a batch holds
 * its strings on the heap only until it is written.
 */
const BATCH = 32;
/** A batch is written sooner once its strings are this long: large bodies are not held long. */
const BATCH_CHARS = 64 * 1024;

/**
 * A chunk of the store: its bytes, the same as 32-bit integers, and how many bytes are used; once
 * full and compressed, only `packed` (its used bytes, deflated) and `used`.
 */
interface Chunk {
  bytes: Buffer | null;
  ints: Int32Array | null;
  used: number;
  packed: Buffer | null;
}

/** A chunk's bytes, of their own (an `Int32Array` needs its offset a multiple of 4). */
function chunkOf(bytes: Buffer, used: number): Chunk & { bytes: Buffer; ints: Int32Array } {
  return {
    bytes,
    ints: new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2),
    used,
    packed: null,
  };
}

/** A chunk's bytes and integers, inflated again into a buffer of their own when compressed. */
function opened(chunk: Chunk): { bytes: Buffer; ints: Int32Array } {
  if (chunk.bytes && chunk.ints) return { bytes: chunk.bytes, ints: chunk.ints };
  const bytes = Buffer.allocUnsafeSlow(chunk.used);
  inflateRawSync(chunk.packed!).copy(bytes);
  return chunkOf(bytes, chunk.used);
}

/** The strings joined by newlines (a loop: `Array.prototype.join` took twice as long). */
function lines(strings: readonly string[]): string {
  let out = strings[0] ?? '';
  for (let i = 1; i < strings.length; i++) out += `\n${strings[i]}`;
  return out;
}

export class CallStore {
  private chunks: Chunk[] = [];
  /** A chunk's bytes given back after compression, for the next chunk. */
  private spare: Buffer | null = null;
  /** Answer bodies of bytes (archives), by call number: rare, and outside the heap already. */
  private readonly binaries = new Map<number, Uint8Array>();
  /** The calls added since the last write: their numbers and lengths, and their strings joined. */
  private readonly batchInts = new Int32Array(BATCH * SLOTS);
  private batchText = '';
  private batched = 0;

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
    const ints = this.batchInts;
    const start = this.batched * SLOTS;
    ints[start] = call.n;
    ints[start + 1] = call.overlapped ? 1 : 0;
    ints[start + 2] = call.startedBefore;
    ints[start + 3] = call.answeredBefore;
    ints[start + 4] = startedAfter;
    ints[start + 5] = answeredAfter;
    ints[start + 6] = answer.status ?? -1;
    ints[start + 7] = binary ? 1 : 0;
    let text = this.batchText;
    for (let i = 0; i < STRINGS; i++) {
      const s = strings[i];
      ints[start + NUMBERS + i] = s?.length ?? -1;
      if (s) text += s;
    }
    this.batchText = text;
    if (++this.batched === BATCH || text.length > BATCH_CHARS) this.write();
  }

  /**
   * Writes the batch as one record: its byte length, its number of calls, each call's numbers and
   * lengths (UTF-16 units, -1 for null), then the calls' strings one after the other as UTF-8.
   */
  private write(): void {
    const count = this.batched;
    if (count === 0) return;
    const text = this.batchText;
    const head = 4 * (2 + count * SLOTS);
    // A UTF-16 unit takes at most 3 bytes in UTF-8; a record starts at a multiple of 4. A batch
    // longer than a chunk is counted exactly: its chunk is its own, and kept as long as the rest.
    let most = head + text.length * 3 + 3;
    if (most > CHUNK_BYTES) most = head + Buffer.byteLength(text) + 3;
    let chunk = this.chunks.at(-1);
    if (!chunk?.bytes || chunk.bytes.length - chunk.used < most) {
      if (chunk?.bytes) this.pack(chunk);
      const spare = most <= CHUNK_BYTES ? this.spare : null;
      if (spare) this.spare = null;
      chunk = chunkOf(spare ?? Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, most)), 0);
      this.chunks.push(chunk);
    }
    const bytes = chunk.bytes!;
    const ints = chunk.ints!;
    const at = chunk.used >> 2;
    ints[at + 1] = count;
    ints.set(this.batchInts.subarray(0, count * SLOTS), at + 2);
    const end = chunk.used + head + bytes.write(text, chunk.used + head);
    ints[at] = end - chunk.used;
    chunk.used = (end + 3) & ~3;
    this.batchText = '';
    this.batched = 0;
  }

  /**
   * Compresses a full chunk on zlib's threads; its bytes stay readable until the compressed ones
   * take their place, then serve the next chunk. A store cleared meanwhile drops the result.
   */
  private pack(chunk: Chunk): void {
    const bytes = chunk.bytes!;
    deflateRaw(bytes.subarray(0, chunk.used), { level: 1 }, (error, packed) => {
      if (error || !this.chunks.includes(chunk)) return;
      chunk.packed = packed;
      chunk.bytes = null;
      chunk.ints = null;
      if (bytes.length === CHUNK_BYTES) this.spare = bytes;
    });
  }

  /**
   * Every call stored, in the order they were answered. Read it to its end without yielding to
   * the event loop: a chunk's bytes read raw while its compression finishes go to the next chunk.
   */
  *calls(): Generator<StoredCall> {
    this.write();
    for (const chunk of this.chunks) {
      const { bytes, ints } = opened(chunk);
      const used = chunk.used;
      for (let at = 0; at < used; at = (at + ints[at >> 2]! + 3) & ~3) {
        const i = at >> 2;
        const count = ints[i + 1]!;
        const head = 4 * (2 + count * SLOTS);
        const text = bytes.toString('utf8', at + head, at + ints[i]!);
        let from = 0;
        for (let k = 0; k < count; k++) {
          const slots = i + 2 + k * SLOTS;
          const numbers = Array.from(ints.subarray(slots, slots + NUMBERS));
          const lengths = ints.subarray(slots + NUMBERS, slots + SLOTS);
          const s = Array.from(lengths, (length) => {
            if (length < 0) return null;
            from += length;
            return text.slice(from - length, from);
          });
          yield this.storedCall(numbers, s);
        }
      }
    }
  }

  /** A call read back from its numbers and strings. */
  private storedCall(numbers: number[], s: (string | null)[]): StoredCall {
    const [n, overlapped, startedBefore, answeredBefore, startedAfter, answeredAfter] = numbers;
    const status = numbers[6]!;
    const split = (joined: string | null) => (joined ? joined.split('\n') : []);
    return {
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

  /** The bytes of memory the chunks take (compressed, once compressed). */
  get chunkBytes(): number {
    this.write();
    let total = 0;
    for (const { bytes, packed } of this.chunks) total += bytes?.length ?? packed!.length;
    return total;
  }

  clear(): void {
    this.chunks = [];
    this.batchText = '';
    this.batched = 0;
    this.binaries.clear();
  }
}
