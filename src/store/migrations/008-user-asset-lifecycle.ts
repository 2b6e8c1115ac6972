import type { Database } from 'better-sqlite3';

/**
 * User environments and objects are created through the API (inferred, DESIGN.md section 7):
 * they list newest first by `seq`, keep a description and metadata, and a created one is
 * `validating` until `ready_at` (virtual time), then takes its `outcome`. Seeded rows keep
 * their status and have neither.
 */
export function migrate008(db: Database): void {
  db.exec(`
    CREATE TABLE user_assets_new (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('environment', 'object')),
      name TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at TEXT NOT NULL,
      description TEXT,
      metadata TEXT NOT NULL DEFAULT '{}',
      ready_at TEXT,
      outcome TEXT
    );
    INSERT INTO user_assets_new (id, account_id, kind, name, status, created_at)
      SELECT id, account_id, kind, name, status, created_at FROM user_assets ORDER BY rowid;
    DROP TABLE user_assets;
    ALTER TABLE user_assets_new RENAME TO user_assets;
    CREATE INDEX user_assets_account ON user_assets (account_id, kind, seq);
  `);
}
