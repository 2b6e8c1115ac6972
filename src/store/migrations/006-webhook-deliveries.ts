import type { Database } from 'better-sqlite3';

/**
 * Webhook deliveries (inferred; docs/runtime.md "Deliveries"): one small row per event and
 * endpoint, no request body (it is rebuilt from the event at each attempt), so a `--db` file keeps
 * pending deliveries across a restart. `seq` is the delivery order and the id's number;
 * `attempts` is a JSON array of `{at, statusCode, error}`. Gone with the account (cascade).
 */
export function migrate006(db: Database): void {
  db.exec(`
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
  `);
}
