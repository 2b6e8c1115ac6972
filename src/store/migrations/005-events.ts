import type { Database } from 'better-sqlite3';

/**
 * The event log (DESIGN.md sections 3 and 4): one row per status transition of a run or twin,
 * written in the transaction that applies it. `seq` is the account's time order (rows are
 * inserted in the order the transitions happen); `snapshot` holds what the resource looked like
 * at that instant, rendered when the event is read. Gone with the account (cascade).
 */
export function migrate005(db: Database): void {
  db.exec(`
    CREATE TABLE events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      resource_id TEXT NOT NULL,
      previous_status TEXT,
      snapshot TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX events_account ON events(account_id, seq);
    CREATE INDEX events_resource ON events(resource_id, seq);
  `);
}
