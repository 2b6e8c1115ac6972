import type { Database } from '../sqlite.js';

/**
 * Webhook retries on the account's virtual clock: a pending delivery's next attempt instant
 * (virtual ms), and an endpoint's disabled state and the start of its run of failures.
 */
export function webhookRetries(db: Database): void {
  db.exec(`
    ALTER TABLE webhook_deliveries ADD COLUMN next_at INTEGER;
    UPDATE webhook_deliveries SET next_at = 0 WHERE status = 'pending';
    DROP INDEX webhook_deliveries_queue;
    CREATE INDEX webhook_deliveries_queue ON webhook_deliveries(endpoint_id, status, next_at, seq);
    ALTER TABLE webhook_deliveries ADD COLUMN series INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE webhook_endpoints ADD COLUMN disabled_at TEXT;
    ALTER TABLE webhook_endpoints ADD COLUMN failing_since INTEGER;
  `);
}
