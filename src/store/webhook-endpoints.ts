import type { Database } from 'better-sqlite3';
import type { WebhookEndpointRecord } from '../domain/records.js';
import { watchRows } from './watch-rows.js';

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  events: string;
  description: string | null;
  metadata: string;
  created_at: string;
  deleted_at: string | null;
}

const fromRow = (row: EndpointRow): WebhookEndpointRecord => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  events: JSON.parse(row.events),
  description: row.description,
  metadata: JSON.parse(row.metadata),
  createdAt: row.created_at,
  deletedAt: row.deleted_at,
});

type LiveEndpoint = { id: string; url: string; events: string[] };

/**
 * Webhook endpoints. Who an event goes to (`liveOfAccount`) is asked for every event the engine
 * records, and an account seldom has endpoints: the answer is kept per account (issue 12: a
 * read on every resume and every transition), dropped by a trigger on any change to the table
 * (whichever code makes it), and dropped again if the transaction that read it rolls back
 * (`rolledBack`, called by `store.tx`), since a row it added or deleted would come or go.
 */
export function createWebhookEndpointRepo(db: Database) {
  const live = new Map<string, readonly LiveEndpoint[]>();
  const readInTransaction = new Set<string>();
  watchRows(
    db,
    'svc_endpoints_changed',
    [{ table: 'webhook_endpoints', column: 'account_id' }],
    (accountId) => live.delete(String(accountId)),
  );
  const insert = db.prepare(
    `INSERT INTO webhook_endpoints (id, account_id, url, events, description, metadata, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string, string], EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ?',
  );
  const exists = db.prepare<[string], { 1: number }>(
    'SELECT 1 FROM webhook_endpoints WHERE id = ?',
  );
  const liveSeq = db.prepare<[string, string], { seq: number }>(
    'SELECT seq FROM webhook_endpoints WHERE id = ? AND account_id = ? AND deleted_at IS NULL',
  );
  const listLive = db.prepare<[string, number, number], EndpointRow>(
    `SELECT * FROM webhook_endpoints WHERE account_id = ? AND deleted_at IS NULL AND seq < ?
       ORDER BY seq DESC LIMIT ?`,
  );
  const liveOfAccount = db.prepare<[string], Pick<EndpointRow, 'id' | 'url' | 'events'>>(
    `SELECT id, url, events FROM webhook_endpoints WHERE account_id = ? AND deleted_at IS NULL
       ORDER BY seq`,
  );
  const markDeleted = db.prepare('UPDATE webhook_endpoints SET deleted_at = ? WHERE id = ?');
  return {
    insert: (e: WebhookEndpointRecord) =>
      void insert.run(
        e.id,
        e.accountId,
        e.url,
        JSON.stringify(e.events),
        e.description,
        JSON.stringify(e.metadata),
        e.createdAt,
      ),
    /** Deleted ones included (`deletedAt` set): callers decide; the API answers them 404. */
    get: (accountId: string, id: string): WebhookEndpointRecord | undefined => {
      const row = byId.get(id, accountId);
      return row && fromRow(row);
    },
    /** Any account's, deleted or not: ids are unique across the emulator. */
    exists: (id: string): boolean => exists.get(id) !== undefined,
    /** One of the account's endpoints that is not deleted (a listing cursor). */
    existsLive: (accountId: string, id: string): boolean =>
      liveSeq.get(id, accountId) !== undefined,
    /** The account's endpoints that are not deleted, newest first, after the id `after`. */
    list: (accountId: string, opts: { after?: string; limit: number }) => {
      const from =
        (opts.after && liveSeq.get(opts.after, accountId)?.seq) || Number.MAX_SAFE_INTEGER;
      const rows = listLive.all(accountId, from, opts.limit + 1);
      return { data: rows.slice(0, opts.limit).map(fromRow), hasMore: rows.length > opts.limit };
    },
    /** The account's endpoints that are not deleted, oldest first: who an event goes to. */
    liveOfAccount: (accountId: string): readonly LiveEndpoint[] => {
      const known = live.get(accountId);
      if (known) return known;
      const rows = Object.freeze(
        liveOfAccount
          .all(accountId)
          .map((r) => Object.freeze({ id: r.id, url: r.url, events: JSON.parse(r.events) })),
      );
      live.set(accountId, rows);
      if (db.inTransaction) readInTransaction.add(accountId);
      return rows;
    },
    /** A transaction (or savepoint) rolled back: what it read is read again. */
    rolledBack(): void {
      for (const accountId of readInTransaction) live.delete(accountId);
      readInTransaction.clear();
    },
    /** The outermost transaction committed: what it read stands. */
    committed(): void {
      readInTransaction.clear();
    },
    markDeleted: (id: string, at: string) => void markDeleted.run(at, id),
  };
}
export type WebhookEndpointRepo = ReturnType<typeof createWebhookEndpointRepo>;
