import type { Database } from 'better-sqlite3';

/**
 * A run stores less, and a write touches fewer pages (issue 12 items 2 and 4):
 * - A run's status is a column (kept equal to `state.status` by store/runs.ts), indexed with
 *   its kind for listing by status and finding the runs holding a slot; the index on
 *   `json_extract(state, '$.status')` parsed the state's JSON on every write. The index on
 *   (account, seq) goes: only usage totals read all of an account's runs, and (account, kind,
 *   seq) finds them (sorted once).
 * - Logs and file listings of new attempts are derived, not stored (runtime/run-outputs.ts); the
 *   attempts of runs already stored keep theirs as rows (`run.storedOutputs`), and runs seeded
 *   without an attempt that have rows say so (`stored_rows`), for a resume to drop them.
 * - Events lose AUTOINCREMENT, which wrote `sqlite_sequence` on every insert: `seq` only orders
 *   an account's events, and nothing refers to a deleted one. A new event of a run's attempt
 *   names the attempt and keeps no copy of the run (`snapshot` NULL); a resume's event keeps
 *   the state the attempt it replaces ended with (store/events.ts); rows written before keep
 *   theirs. A new event keeps the account counter its id was made from (`n`): the counter is
 *   kept in memory and read back from the account's last event, not written on every event.
 * - Idempotency records move to a rowid table: in a WITHOUT ROWID table a record of more than
 *   about 1 KB (a run's body) overflowed into a page of its own, three quarters empty.
 */
export function migrate012(db: Database): void {
  db.exec(`
    UPDATE runs SET state = json_set(state, '$.run.storedOutputs', json('true'))
      WHERE json_type(state, '$.run') = 'object';
    UPDATE runs SET state = json_set(state, '$.stored_rows', json('true'))
      WHERE json_type(state, '$.run') IS NULL
        AND (EXISTS (SELECT 1 FROM run_logs l WHERE l.run_id = runs.id)
          OR EXISTS (SELECT 1 FROM run_files f WHERE f.run_id = runs.id));
    ALTER TABLE runs ADD COLUMN status TEXT NOT NULL DEFAULT 'queued';
    UPDATE runs SET status = json_extract(state, '$.status');
    DROP INDEX runs_kind_status;
    CREATE INDEX runs_kind_status ON runs(account_id, kind, status, seq);
    DROP INDEX evaluations_account;

    CREATE TABLE events_012 (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      resource_id TEXT NOT NULL,
      previous_status TEXT,
      snapshot TEXT,
      attempt INTEGER,
      n INTEGER,
      created_at TEXT NOT NULL
    );
    INSERT INTO events_012 (seq, id, account_id, type, resource_id, previous_status, snapshot, created_at)
      SELECT seq, id, account_id, type, resource_id, previous_status, snapshot, created_at FROM events;
    DROP TABLE events;
    ALTER TABLE events_012 RENAME TO events;
    CREATE INDEX events_account ON events(account_id, seq);
    CREATE INDEX events_resource ON events(resource_id, seq);

    CREATE TABLE idempotency_012 (
      seq INTEGER PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      status INTEGER NOT NULL,
      headers TEXT NOT NULL,
      body BLOB NOT NULL,
      created_at_ms INTEGER NOT NULL,
      UNIQUE (account_id, key)
    );
    INSERT INTO idempotency_012
        (account_id, key, request_hash, status, headers, body, created_at_ms)
      SELECT account_id, key, request_hash, status, headers, body, created_at_ms
        FROM idempotency_records;
    DROP TABLE idempotency_records;
    ALTER TABLE idempotency_012 RENAME TO idempotency_records;
  `);
}
