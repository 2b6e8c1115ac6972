import type { Database } from 'better-sqlite3';

/**
 * Fault rules and the request journal survive a restart on a `--db` file (issue 9, inferred;
 * `GET /v1/requests` promises 30 days of calls, API document section 8). Rows hold the JSON the
 * in-memory objects keep; `seq` is creation (rules) or recording (journal) order.
 */
export function migrate007(db: Database): void {
  db.exec(`
    CREATE TABLE fault_rules (
      id TEXT PRIMARY KEY,
      seq INTEGER NOT NULL,
      body TEXT NOT NULL
    );
    CREATE TABLE journal (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      body TEXT NOT NULL
    );
  `);
}
