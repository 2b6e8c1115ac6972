/** The request journal (DESIGN.md section 5): a fixed ring, copied to a `--db` file's sink. */
import { EntrySlots } from './entry-slots.js';
import { type JournalDetail, JournalDetails } from './journal-details.js';
import type { JournalEntry } from './journal-entry.js';
import type { JournalStore } from './journal-store.js';

export type { JournalEntry };

/** Who follows the journal as it is written (the inspector's live view, issue 30). */
export interface JournalListener {
  entry(entry: JournalEntry): void;
  /** Entries were removed (a reset, `DELETE /_control/requests`). */
  removed(): void;
  /** The emulator is shutting down. */
  end(): void;
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
  /** `2xx` ... `5xx` by the status's first digit, or `dropped` (no status). */
  statusClass?: string;
}

export class Journal {
  /** The ring's slots (`length` of them used); `next` is where the next entry goes, over the oldest once it is full. */
  private readonly slots: EntrySlots;
  private length = 0;
  private next = 0;
  private readonly listeners = new Set<JournalListener>();
  /** The newest calls' requests and answers (journal-details.ts). */
  readonly details: JournalDetails;

  constructor(
    readonly capacity: number,
    /** Where recorded entries are also kept (a `--db` file); null in memory. */
    private readonly sink: JournalStore | null = null,
  ) {
    this.details = new JournalDetails(capacity);
    this.slots = new EntrySlots(capacity);
  }

  /** Calls `listener` for each entry recorded from now on; answers the way to stop. */
  subscribe(listener: JournalListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends every subscription (at shutdown, so open streams do not hold the server). */
  endSubscriptions(): void {
    for (const l of [...this.listeners]) l.end();
    this.listeners.clear();
  }

  /** Puts back entries read from the sink (oldest first) without writing them again. */
  restore(entries: readonly JournalEntry[]): void {
    for (const e of entries) this.push(e);
  }

  get size(): number {
    return this.length;
  }

  record(entry: JournalEntry, detail?: JournalDetail): void {
    if (this.capacity === 0) return;
    this.push(entry);
    this.sink?.append(entry);
    if (detail) this.details.record(entry.request_id, detail);
    for (const l of this.listeners) l.entry(entry);
  }

  private push(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    this.slots.set(this.next, entry);
    if (this.length < this.capacity) this.length += 1;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Oldest first. */
  *entries(): Generator<JournalEntry> {
    for (const i of this.order('oldest')) yield this.slots.get(i);
  }

  /** Newest first. */
  *newest(): Generator<JournalEntry> {
    for (const i of this.order('newest')) yield this.slots.get(i);
  }

  /** The slots in use, in either order. */
  private *order(order: 'oldest' | 'newest'): Generator<number> {
    const n = this.length;
    const start = n < this.capacity ? 0 : this.next;
    if (order === 'oldest') for (let i = 0; i < n; i++) yield (start + i) % n;
    else for (let i = n - 1; i >= 0; i--) yield (start + i) % n;
  }

  /** Matching entries newest first, after request `after`; `found: false` if it matches none. */
  newestPage(
    f: JournalFilter,
    after: string | undefined,
    limit: number,
  ): { data: JournalEntry[]; hasMore: boolean; found: boolean } {
    return this.page(f, after, limit, 'newest');
  }

  /** A page of matching entries in either order, after request `after` (a cursor). */
  page(
    f: JournalFilter,
    after: string | undefined,
    limit: number,
    order: 'oldest' | 'newest',
  ): { data: JournalEntry[]; hasMore: boolean; found: boolean } {
    const data: JournalEntry[] = [];
    let found = after === undefined;
    for (const e of order === 'newest' ? this.newest() : this.entries()) {
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

  /** Replaces every entry with `entries`, oldest first (a snapshot restore), the sink's too. */
  replace(entries: readonly JournalEntry[]): void {
    this.empty();
    for (const e of entries) this.push(e);
    this.sink?.replace(this.entries());
  }

  /** Removes the entries matching the filter (all without one); answers how many. */
  remove(f: JournalFilter = {}): number {
    const kept = [...this.entries()].filter((e) => !matches(e, f));
    const removed = this.length - kept.length;
    if (removed === 0) return 0;
    const gone = [...this.entries()].filter((e) => matches(e, f)).map((e) => e.request_id);
    this.empty();
    for (const e of kept) this.push(e);
    this.sink?.replace(kept);
    this.details.forget(gone);
    for (const l of this.listeners) l.removed();
    return removed;
  }

  /** The entry of that request id, if the journal still holds it. */
  find(requestId: string): JournalEntry | undefined {
    for (const i of this.order('newest'))
      if (this.slots.requestId(i) === requestId) return this.slots.get(i);
    return undefined;
  }

  private empty(): void {
    this.slots.clear();
    this.length = 0;
    this.next = 0;
  }
}

/** Whether the status falls in the class (`4xx`, or `dropped` for no status). */
function inClass(status: number | null, cls: string): boolean {
  if (cls === 'dropped') return status === null;
  return status !== null && String(status)[0] === cls[0];
}

/** Whether the entry passes every given filter. */
export function matches(e: JournalEntry, f: JournalFilter): boolean {
  return (
    (f.method === undefined || e.method === f.method) &&
    (f.route === undefined || e.route === f.route) &&
    (f.operation === undefined || e.operation === f.operation) &&
    (f.status === undefined || e.status === f.status) &&
    (f.code === undefined || e.code === f.code) &&
    (f.account === undefined || e.account_id === f.account) &&
    (f.key === undefined || e.key_id === f.key) &&
    (f.sinceMs === undefined || e.at_ms >= f.sinceMs) &&
    (f.statusClass === undefined || inClass(e.status, f.statusClass))
  );
}

declare module '../../engine/deps.js' {
  interface Deps {
    /** The request journal (`/_control/requests`). */
    journal: Journal;
  }
}
