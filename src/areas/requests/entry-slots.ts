/**
 * The journal's slots as columns: a typed array for each number and flag, an array for each
 * text. The journal keeps 10,000 entries unless told; kept as objects, each call's entry (an
 * object and two heap numbers besides its strings) lived through collections until 10,000 calls
 * later: a third of `GET /v1/keys/me`'s garbage-collection time. An entry is an object again
 * only when it is read.
 */
import type { JournalEntry } from './journal-entry.js';

/** Texts, numbers and flags an entry has: the width of each column set. */
const TEXTS = 12;
const NUMBERS = 7;
const FLAGS = 3;

/** Slots first made for this many entries, then doubled up to the journal's size. */
const FIRST_SLOTS = 1024;

/** A number, null kept as NaN. */
const fromNumber = (v: number) => (Number.isNaN(v) ? null : v);

export class EntrySlots {
  private texts: (string | null)[] = [];
  private numbers = new Float64Array(0);
  private flags = new Uint8Array(0);
  private room = 0;

  constructor(private readonly capacity: number) {}

  /** Writes `e` into slot `i` (at most one past the last slot written). */
  set(i: number, e: JournalEntry): void {
    if (i >= this.room) this.grow();
    const t = this.texts;
    let k = i * TEXTS;
    t[k++] = e.request_id;
    t[k++] = e.method;
    t[k++] = e.path;
    t[k++] = e.route;
    t[k++] = e.operation;
    t[k++] = e.code;
    t[k++] = e.account_id;
    t[k++] = e.key_id;
    t[k++] = e.fault_id;
    t[k++] = e.idempotency_key;
    t[k++] = e.body_digest;
    t[k] = e.resource_id;
    const n = this.numbers;
    k = i * NUMBERS;
    n[k++] = e.status ?? Number.NaN;
    n[k++] = e.at_ms;
    n[k++] = e.wall_ms;
    n[k++] = e.duration_ms;
    n[k++] = e.retry_after ?? Number.NaN;
    n[k++] = e.work_status ?? Number.NaN;
    n[k] = e.hang_ms ?? Number.NaN;
    const f = this.flags;
    k = i * FLAGS;
    f[k++] = e.idempotent_replayed ? 1 : 0;
    f[k++] = e.fault_after ? 1 : 0;
    f[k] = e.client_closed ? 1 : 0;
  }

  /** The request id in slot `i`. */
  requestId(i: number): string {
    return this.texts[i * TEXTS]!;
  }

  /** The entry in slot `i`, its keys in `JournalEntry`'s order. */
  get(i: number): JournalEntry {
    const t = this.texts.slice(i * TEXTS, (i + 1) * TEXTS);
    const n = this.numbers.subarray(i * NUMBERS, (i + 1) * NUMBERS);
    const f = this.flags.subarray(i * FLAGS, (i + 1) * FLAGS);
    return {
      request_id: t[0]!,
      method: t[1]!,
      path: t[2]!,
      route: t[3] ?? null,
      operation: t[4] ?? null,
      status: fromNumber(n[0]!),
      code: t[5] ?? null,
      account_id: t[6] ?? null,
      key_id: t[7] ?? null,
      fault_id: t[8] ?? null,
      idempotent_replayed: f[0] === 1,
      at_ms: n[1]!,
      wall_ms: n[2]!,
      duration_ms: n[3]!,
      idempotency_key: t[9] ?? null,
      body_digest: t[10] ?? null,
      retry_after: fromNumber(n[4]!),
      fault_after: f[1] === 1,
      work_status: fromNumber(n[5]!),
      hang_ms: fromNumber(n[6]!),
      client_closed: f[2] === 1,
      resource_id: t[11] ?? null,
    };
  }

  /** Lets every slot go (the texts it kept with them). */
  clear(): void {
    this.texts = [];
  }

  private grow(): void {
    this.room = Math.min(this.capacity, Math.max(FIRST_SLOTS, this.room * 2));
    const numbers = new Float64Array(this.room * NUMBERS);
    numbers.set(this.numbers);
    this.numbers = numbers;
    const flags = new Uint8Array(this.room * FLAGS);
    flags.set(this.flags);
    this.flags = flags;
  }
}
