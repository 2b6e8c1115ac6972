import type { Database } from '../sqlite.js';

/** Every table of the emulator's world, as one schema (the package never shipped another). */
export function baseline(db: Database): void {
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
      -- The wall ms at which the clock stood at clock_now; NULL until the clock is first used.
      clock_wall INTEGER,
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

    -- status mirrors state.status; next_at is when the run's next transition is due.
    CREATE TABLE runs (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      request TEXT NOT NULL,
      state TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at TEXT NOT NULL,
      next_at INTEGER
    );
    CREATE INDEX runs_due ON runs(account_id, next_at) WHERE next_at IS NOT NULL;
    CREATE INDEX runs_kind ON runs(account_id, kind, seq);
    CREATE INDEX runs_status ON runs(account_id, status, kind, seq);
    CREATE TABLE run_logs (
      run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      line TEXT NOT NULL,
      PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE run_files (
      run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      PRIMARY KEY (run_id, path)
    ) WITHOUT ROWID;

    CREATE TABLE scenarios (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE TABLE user_assets (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('environment', 'object')),
      name TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at TEXT NOT NULL,
      description TEXT,
      metadata TEXT NOT NULL,
      ready_at TEXT,
      outcome TEXT
    );
    CREATE INDEX user_assets_account ON user_assets(account_id, kind, seq);

    CREATE TABLE webhook_endpoints (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      description TEXT,
      metadata TEXT NOT NULL,
      created_at TEXT NOT NULL,
      deleted_at TEXT
    );
    CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, seq);
    -- One row per event and endpoint, no body (rebuilt from the event at each attempt);
    -- attempts is a JSON array of {at, statusCode, error}; seq is the id's number.
    CREATE TABLE webhook_deliveries (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      event_id TEXT NOT NULL,
      event_type TEXT NOT NULL,
      endpoint_id TEXT NOT NULL,
      url TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts TEXT NOT NULL DEFAULT '[]',
      created_at INTEGER NOT NULL
    );
    CREATE INDEX webhook_deliveries_queue ON webhook_deliveries(endpoint_id, status, seq);
    CREATE INDEX webhook_deliveries_status ON webhook_deliveries(status, seq);
    CREATE INDEX webhook_deliveries_account ON webhook_deliveries(account_id, seq);

    -- One row per status transition, in the order they happen (seq); n is the account's event
    -- counter its id was made from. What the run showed is derived (store/events.ts).
    CREATE TABLE events (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      resource_id TEXT NOT NULL,
      previous_status TEXT,
      snapshot TEXT,
      attempt INTEGER,
      n INTEGER NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX events_account ON events(account_id, seq);
    CREATE INDEX events_resource ON events(resource_id, seq);

    CREATE TABLE idempotency_records (
      seq INTEGER PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      status INTEGER NOT NULL,
      headers TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at_ms INTEGER NOT NULL,
      UNIQUE (account_id, key)
    );
    CREATE TABLE sequences (
      stream TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    ) WITHOUT ROWID;

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
