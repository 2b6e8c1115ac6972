import type { Database } from 'better-sqlite3';

/** Every table of the foundation. Idempotency records and the journal are filled by later work. */
export function migrate001(db: Database): void {
  db.exec(`
    CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      features TEXT NOT NULL,
      token_balance INTEGER NOT NULL,
      limits TEXT NOT NULL,
      download_mode TEXT NOT NULL,
      clock_mode TEXT NOT NULL,
      clock_now INTEGER NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      scopes TEXT NOT NULL,
      secret_sha256 BLOB NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      expires_at TEXT,
      revoked_at TEXT
    );
    CREATE INDEX api_keys_account ON api_keys(account_id);
    CREATE TABLE evaluations (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      request TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX evaluations_account ON evaluations(account_id, seq);
    CREATE TABLE run_logs (
      run_id TEXT NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      line TEXT NOT NULL,
      PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE run_files (
      run_id TEXT NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      PRIMARY KEY (run_id, path)
    ) WITHOUT ROWID;
    CREATE TABLE twins (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      status TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX twins_account ON twins(account_id, seq);
    CREATE TABLE twin_files (
      twin_id TEXT NOT NULL REFERENCES twins(id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      PRIMARY KEY (twin_id, path)
    ) WITHOUT ROWID;
    CREATE TABLE scenarios (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE TABLE user_assets (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('environment', 'object')),
      name TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE TABLE webhook_endpoints (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      created_at TEXT NOT NULL,
      deleted_at TEXT
    );
    CREATE TABLE idempotency_records (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      status INTEGER NOT NULL,
      headers TEXT NOT NULL,
      body BLOB NOT NULL,
      created_at_ms INTEGER NOT NULL,
      PRIMARY KEY (account_id, key)
    ) WITHOUT ROWID;
    CREATE TABLE request_journal (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      request_id TEXT NOT NULL,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      route TEXT,
      status INTEGER NOT NULL,
      code TEXT,
      account_id TEXT,
      key_id TEXT,
      virtual_at TEXT NOT NULL,
      wall_at TEXT NOT NULL
    );
    CREATE TABLE sequences (
      stream TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    ) WITHOUT ROWID;
  `);
}
