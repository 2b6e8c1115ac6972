/**
 * The request journal (DESIGN.md section 5): every product request, oldest first, in a ring of
 * fixed capacity so a long CI run cannot exhaust memory. With a `--db` file a sink (the
 * `JournalStore`) keeps a copy, so a restart reloads it; with `:memory:` a restart starts empty.
 *
 * The ring holds no object per request (issue 12 item 4): an entry lives on in the heap long
 * after the request, so each one was promoted to V8's old generation and became garbage there
 * when the ring overwrote it, about 60 MB of resident memory after a minute of load (measured:
 * the same load with `--journal-size 0`). Entries are columns instead: numbers in typed arrays,
 * the strings every request shares (method, route, operation, code, account, key, fault rule)
 * as references, and the two a request makes (its id and path) as UTF-8 in a circular byte
 * arena of {@link ARENA_BYTES_PER_ENTRY} bytes per entry. Entries are built when read.
 */
import type { JournalEntry } from '../domain/records.js';

export type { JournalEntry };

/** Where recorded entries are also kept (a `--db` file); null in memory. */
export interface JournalSink {
  append(entry: JournalEntry): void;
  replace(entries: Iterable<JournalEntry>): void;
}

export interface JournalFilter {
  method?: string;
  route?: string;
  operation?: string;
  status?: number;
  code?: string;
  account?: string;
  key?: string;
  /** Virtual instant in ms: entries at or after it. */
  sinceMs?: number;
}

/**
 * Arena bytes per entry of capacity: a request id (30 bytes) and a path of about 98. Longer
 * paths (up to 2,048 characters) fit too; when they fill the arena the oldest entries go first,
 * so the journal then holds fewer than its capacity.
 */
export const ARENA_BYTES_PER_ENTRY = 128;
/** The arena's smallest size: room for a few entries of the longest path. */
const ARENA_MIN_BYTES = 64 * 1024;

/** A string column: references to strings the requests share, or null. */
type Column = (string | null)[];

export class Journal {
  private readonly method: Column;
  private readonly route: Column;
  private readonly operation: Column;
  private readonly code: Column;
  private readonly account: Column;
  private readonly key: Column;
  private readonly fault: Column;
  /** HTTP status; -1 when a dropped connection sent none. */
  private readonly status: Int16Array;
  private readonly replayed: Uint8Array;
  private readonly at: Float64Array;
  private readonly wall: Float64Array;
  private readonly duration: Float64Array;
  /** Where the entry's id and path start in the arena, as an absolute (ever growing) offset. */
  private readonly textAt: Float64Array;
  private readonly idBytes: Uint16Array;
  private readonly pathBytes: Uint16Array;
  private readonly arena: Buffer;
  /** Absolute arena offset of the next text: `% arena.length` is its place in the buffer. */
  private written = 0;
  private next = 0;
  private count = 0;

  constructor(
    readonly capacity: number,
    private readonly sink: JournalSink | null = null,
  ) {
    const column = (): Column => new Array(capacity).fill(null);
    this.method = column();
    this.route = column();
    this.operation = column();
    this.code = column();
    this.account = column();
    this.key = column();
    this.fault = column();
    this.status = new Int16Array(capacity);
    this.replayed = new Uint8Array(capacity);
    this.at = new Float64Array(capacity);
    this.wall = new Float64Array(capacity);
    this.duration = new Float64Array(capacity);
    this.textAt = new Float64Array(capacity);
    this.idBytes = new Uint16Array(capacity);
    this.pathBytes = new Uint16Array(capacity);
    const bytes = capacity === 0 ? 0 : Math.max(capacity * ARENA_BYTES_PER_ENTRY, ARENA_MIN_BYTES);
    this.arena = Buffer.alloc(bytes);
  }

  /** Puts back entries read from the sink (oldest first) without writing them again. */
  restore(entries: readonly JournalEntry[]): void {
    for (const e of entries) this.push(e);
  }

  get size(): number {
    return this.count;
  }

  record(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    this.push(entry);
    this.sink?.append(entry);
  }

  private push(e: JournalEntry): void {
    const idBytes = Buffer.byteLength(e.request_id);
    const pathBytes = Buffer.byteLength(e.path);
    const start = this.reserve(idBytes + pathBytes);
    if (start === null) return;
    if (this.count === this.capacity) this.dropOldest();
    const i = this.next;
    const place = start % this.arena.length;
    this.arena.write(e.request_id, place, idBytes);
    this.arena.write(e.path, place + idBytes, pathBytes);
    this.textAt[i] = start;
    this.idBytes[i] = idBytes;
    this.pathBytes[i] = pathBytes;
    this.method[i] = e.method;
    this.route[i] = e.route;
    this.operation[i] = e.operation;
    this.code[i] = e.code;
    this.account[i] = e.account_id;
    this.key[i] = e.key_id;
    this.fault[i] = e.fault_id;
    this.status[i] = e.status ?? -1;
    this.replayed[i] = e.idempotent_replayed ? 1 : 0;
    this.at[i] = e.at_ms;
    this.wall[i] = e.wall_ms;
    this.duration[i] = e.duration_ms;
    this.next = (i + 1) % this.capacity;
    this.count += 1;
  }

  /**
   * Room for `length` bytes of text, contiguous in the arena: their absolute start, with the
   * oldest entries whose text it overwrites dropped; null for text longer than the arena.
   */
  private reserve(length: number): number | null {
    const size = this.arena.length;
    if (length > size) return null;
    const place = this.written % size;
    // Text never wraps around the end: the rest of the buffer is skipped.
    if (place + length > size) this.written += size - place;
    const start = this.written;
    this.written += length;
    while (this.count > 0 && this.textAt[this.oldest()]! < this.written - size) this.dropOldest();
    return start;
  }

  private oldest(): number {
    return (this.next - this.count + this.capacity) % this.capacity;
  }

  private dropOldest(): void {
    const i = this.oldest();
    this.method[i] = this.route[i] = this.operation[i] = null;
    this.code[i] = this.account[i] = this.key[i] = this.fault[i] = null;
    this.count -= 1;
  }

  /** The entry in ring slot `i`, built from its columns. */
  private entry(i: number): JournalEntry {
    const place = this.textAt[i]! % this.arena.length;
    const idEnd = place + this.idBytes[i]!;
    const status = this.status[i]!;
    return {
      request_id: this.arena.toString('utf8', place, idEnd),
      method: this.method[i]!,
      path: this.arena.toString('utf8', idEnd, idEnd + this.pathBytes[i]!),
      route: this.route[i]!,
      operation: this.operation[i]!,
      status: status === -1 ? null : status,
      code: this.code[i]!,
      account_id: this.account[i]!,
      key_id: this.key[i]!,
      fault_id: this.fault[i]!,
      idempotent_replayed: this.replayed[i] === 1,
      at_ms: this.at[i]!,
      wall_ms: this.wall[i]!,
      duration_ms: this.duration[i]!,
    };
  }

  /** Oldest first. */
  *entries(): Generator<JournalEntry> {
    const start = this.oldest();
    for (let n = 0; n < this.count; n++) yield this.entry((start + n) % this.capacity);
  }

  /** Newest first. */
  *newest(): Generator<JournalEntry> {
    for (let n = 1; n <= this.count; n++) {
      yield this.entry((this.next - n + this.capacity) % this.capacity);
    }
  }

  /**
   * A page of the matching entries, newest first, after the entry `after` (a request id);
   * `found: false` when `after` names no matching entry.
   */
  newestPage(
    f: JournalFilter,
    after: string | undefined,
    limit: number,
  ): { data: JournalEntry[]; hasMore: boolean; found: boolean } {
    const data: JournalEntry[] = [];
    let found = after === undefined;
    for (const e of this.newest()) {
      if (!matches(e, f)) continue;
      if (!found) {
        found = e.request_id === after;
        continue;
      }
      if (data.length === limit) return { data, hasMore: true, found };
      data.push(e);
    }
    return { data, hasMore: false, found };
  }

  /** The entries matching every given filter, oldest first. */
  filter(f: JournalFilter): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (const e of this.entries()) if (matches(e, f)) out.push(e);
    return out;
  }

  /** Removes the entries matching the filter (all without one); answers how many. */
  remove(f: JournalFilter = {}): number {
    const kept = [...this.entries()].filter((e) => !matches(e, f));
    const removed = this.count - kept.length;
    while (this.count > 0) this.dropOldest();
    this.next = 0;
    this.written = 0;
    for (const e of kept) this.push(e);
    if (removed > 0) this.sink?.replace(kept);
    return removed;
  }
}

function matches(e: JournalEntry, f: JournalFilter): boolean {
  return (
    (f.method === undefined || e.method === f.method) &&
    (f.route === undefined || e.route === f.route) &&
    (f.operation === undefined || e.operation === f.operation) &&
    (f.status === undefined || e.status === f.status) &&
    (f.code === undefined || e.code === f.code) &&
    (f.account === undefined || e.account_id === f.account) &&
    (f.key === undefined || e.key_id === f.key) &&
    (f.sinceMs === undefined || e.at_ms >= f.sinceMs)
  );
}
