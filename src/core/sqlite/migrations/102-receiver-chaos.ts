import type { Database } from '../sqlite.js';

/**
 * Receiver chaos: an endpoint's chaos probabilities (JSON), and the chaos a delivery carries
 * (`bad_signature`, `duplicate`, ...; null for an ordinary one). A duplicate waits with no
 * `next_at` until the first delivery of its event is accepted.
 */
export function receiverChaos(db: Database): void {
  db.exec(`
    ALTER TABLE webhook_endpoints ADD COLUMN chaos TEXT;
    ALTER TABLE webhook_deliveries ADD COLUMN chaos TEXT;
  `);
}
