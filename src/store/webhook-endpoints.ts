import type { Database } from 'better-sqlite3';
import type { WebhookEndpointRecord } from '../domain/records.js';

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  events: string;
  created_at: string;
  deleted_at: string | null;
}

export function createWebhookEndpointRepo(db: Database) {
  const insert = db.prepare(
    `INSERT INTO webhook_endpoints (id, account_id, url, events, created_at)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string, string], EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ?',
  );
  const exists = db.prepare<[string], { 1: number }>(
    'SELECT 1 FROM webhook_endpoints WHERE id = ?',
  );
  const markDeleted = db.prepare('UPDATE webhook_endpoints SET deleted_at = ? WHERE id = ?');
  return {
    insert: (e: WebhookEndpointRecord) =>
      void insert.run(e.id, e.accountId, e.url, JSON.stringify(e.events), e.createdAt),
    get: (accountId: string, id: string): WebhookEndpointRecord | undefined => {
      const row = byId.get(id, accountId);
      return (
        row && {
          id: row.id,
          accountId: row.account_id,
          url: row.url,
          events: JSON.parse(row.events),
          createdAt: row.created_at,
          deletedAt: row.deleted_at,
        }
      );
    },
    exists: (id: string): boolean => exists.get(id) !== undefined,
    markDeleted: (id: string, at: string) => void markDeleted.run(at, id),
  };
}
export type WebhookEndpointRepo = ReturnType<typeof createWebhookEndpointRepo>;
