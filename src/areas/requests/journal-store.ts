import type { Database } from '../../core/sqlite/sqlite.js';
import type { JournalEntry } from './journal-entry.js';

/** Entries written per batch at most, and how long an entry waits for its batch. */
const BATCH_SIZE = 500;
const FLUSH_DELAY_MS = 200;

/**
 * The journal in the `--db` file (inferred), written in batches behind the requests so none waits
 * (a kill -9 loses the unwritten queue); the newest `capacity` are kept.
 */
export class JournalStore {
  private queue: JournalEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly insert;
  private readonly trim;

  constructor(
    private readonly db: Database,
    private readonly capacity: number,
  ) {
    this.insert = db.prepare('INSERT INTO journal (body) VALUES (?)');
    this.trim = db.prepare('DELETE FROM journal WHERE seq <= (SELECT MAX(seq) FROM journal) - ?');
  }

  append(entry: JournalEntry): void {
    this.queue.push(entry);
    if (this.queue.length >= BATCH_SIZE) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flushInBackground(), FLUSH_DELAY_MS);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0 || !this.db.open) return;
    const batch = this.queue;
    this.queue = [];
    this.db.transaction(() => {
      for (const e of batch) this.insert.run(JSON.stringify(e));
      this.trim.run(this.capacity);
    })();
  }

  /** A failed background write (a full disk, say) loses that batch, never the process. */
  private flushInBackground(): void {
    try {
      this.flush();
    } catch (err) {
      console.error(`svc-emulator: journal batch not written: ${(err as Error).message}`);
    }
  }

  /** Replaces every stored entry (after a reset or `DELETE /_control/requests`). */
  replace(entries: Iterable<JournalEntry>): void {
    this.queue = [];
    this.db.transaction(() => {
      this.db.exec('DELETE FROM journal');
      for (const e of entries) this.insert.run(JSON.stringify(e));
    })();
  }

  /** The newest `capacity` entries, oldest first. */
  load(): JournalEntry[] {
    const rows = this.db
      .prepare('SELECT body FROM journal ORDER BY seq DESC LIMIT ?')
      .all(this.capacity) as { body: string }[];
    return rows.reverse().map((r) => JSON.parse(r.body) as JournalEntry);
  }
}
