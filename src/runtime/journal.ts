/** The request journal (DESIGN.md section 5): a fixed ring, copied to a `--db` file's sink. */
import type { JournalEntry } from '../domain/records.js';
import type { JournalStore } from '../store/journal.js';

export type { JournalEntry };

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

export class Journal {
  /** The ring's slots; `next` is where the next entry goes, over the oldest once it is full. */
  private readonly slots: JournalEntry[] = [];
  private next = 0;

  constructor(
    readonly capacity: number,
    /** Where recorded entries are also kept (a `--db` file); null in memory. */
    private readonly sink: JournalStore | null = null,
  ) {}

  /** Puts back entries read from the sink (oldest first) without writing them again. */
  restore(entries: readonly JournalEntry[]): void {
    for (const e of entries) this.push(e);
  }

  get size(): number {
    return this.slots.length;
  }

  record(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    this.push(entry);
    this.sink?.append(entry);
  }

  private push(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    if (this.slots.length < this.capacity) this.slots.push(entry);
    else this.slots[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Oldest first. */
  *entries(): Generator<JournalEntry> {
    const n = this.slots.length;
    const start = n < this.capacity ? 0 : this.next;
    for (let i = 0; i < n; i++) yield this.slots[(start + i) % n]!;
  }

  /** Newest first. */
  *newest(): Generator<JournalEntry> {
    const n = this.slots.length;
    const end = n < this.capacity ? n : this.next;
    for (let i = 1; i <= n; i++) yield this.slots[(end - i + n) % n]!;
  }

  /** Matching entries newest first, after request `after`; `found: false` if it matches none. */
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

  /** Replaces every entry with `entries`, oldest first (a snapshot restore), the sink's too. */
  replace(entries: readonly JournalEntry[]): void {
    this.slots.length = 0;
    this.next = 0;
    for (const e of entries) this.push(e);
    this.sink?.replace(this.entries());
  }

  /** Removes the entries matching the filter (all without one); answers how many. */
  remove(f: JournalFilter = {}): number {
    const kept = [...this.entries()].filter((e) => !matches(e, f));
    const removed = this.slots.length - kept.length;
    this.slots.length = 0;
    this.next = 0;
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
