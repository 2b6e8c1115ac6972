import type { Database } from 'better-sqlite3';

/**
 * The simulated runtime: when each run's next transition is due (so settling an account reads
 * only what is due), the archives of succeeded runs, and twins driven by the same engine.
 */
export function migrate002(db: Database): void {
  db.exec(`
    ALTER TABLE evaluations ADD COLUMN next_at INTEGER;
    CREATE INDEX evaluations_due ON evaluations(account_id, next_at) WHERE next_at IS NOT NULL;
    CREATE INDEX evaluations_status ON evaluations(account_id, json_extract(state, '$.status'), seq);
    CREATE TABLE archives (
      run_id TEXT PRIMARY KEY REFERENCES evaluations(id) ON DELETE CASCADE,
      bytes BLOB NOT NULL,
      sha256 TEXT NOT NULL
    ) WITHOUT ROWID;
    ALTER TABLE twins ADD COLUMN run TEXT;
    ALTER TABLE twins ADD COLUMN next_at INTEGER;
    CREATE INDEX twins_due ON twins(account_id, next_at) WHERE next_at IS NOT NULL;
  `);
}
