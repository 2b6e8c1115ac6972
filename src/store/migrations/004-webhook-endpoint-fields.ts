import type { Database } from 'better-sqlite3';

/**
 * The fields `POST /v1/webhook_endpoints` takes beyond `url` and `events` (inferred, DESIGN.md
 * section 3), and the index the account's newest-first listing of endpoints reads.
 */
export function migrate004(db: Database): void {
  db.exec(`
    ALTER TABLE webhook_endpoints ADD COLUMN description TEXT;
    ALTER TABLE webhook_endpoints ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
    CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, seq);
  `);
}
