import { createCursorList } from '../../core/sqlite/cursor-list.js';
import type { Database } from '../../core/sqlite/sqlite.js';
import type { WebhookChaos, WebhookEndpointRecord } from './records.js';

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  events: string;
  description: string | null;
  metadata: string;
  created_at: string;
  deleted_at: string | null;
  disabled_at: string | null;
  failing_since: number | null;
  chaos: string | null;
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
  disabledAt: row.disabled_at,
  chaos: row.chaos === null ? null : JSON.parse(row.chaos),
});

type LiveEndpoint = { id: string; url: string; events: string[]; chaos: WebhookChaos | null };

/** Webhook endpoints; deleted ones stay as rows (`deleted_at`) so their ids stay taken. */
export function createWebhookEndpointRepo(db: Database) {
  const insert = db.prepare(
    `INSERT INTO webhook_endpoints (id, account_id, url, events, description, metadata, created_at, chaos)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string, string], EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ?',
  );
  const exists = db.prepare<[string], { 1: number }>(
    'SELECT 1 FROM webhook_endpoints WHERE id = ?',
  );
  const live = createCursorList(db, 'webhook_endpoints', fromRow, 'deleted_at IS NULL');
  const liveOfAccount = db.prepare<[string], Pick<EndpointRow, 'id' | 'url' | 'events' | 'chaos'>>(
    `SELECT id, url, events, chaos FROM webhook_endpoints
       WHERE account_id = ? AND deleted_at IS NULL AND disabled_at IS NULL ORDER BY seq`,
  );
  const ofAccount = db.prepare<[string], EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE account_id = ? AND deleted_at IS NULL ORDER BY seq',
  );
  const markDeleted = db.prepare('UPDATE webhook_endpoints SET deleted_at = ? WHERE id = ?');
  const anyById = db.prepare<[string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ?');
  const setDisabled = db.prepare(
    'UPDATE webhook_endpoints SET disabled_at = ?, failing_since = NULL WHERE id = ?',
  );
  const setFailingSince = db.prepare('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?');
  const setChaos = db.prepare('UPDATE webhook_endpoints SET chaos = ? WHERE id = ?');
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
        e.chaos && JSON.stringify(e.chaos),
      ),
    /** Deleted ones included (`deletedAt` set): callers decide; the API answers them 404. */
    get: (accountId: string, id: string): WebhookEndpointRecord | undefined => {
      const row = byId.get(id, accountId);
      return row && fromRow(row);
    },
    /** Any account's, deleted or not: ids are unique across the emulator. */
    exists: (id: string): boolean => exists.get(id) !== undefined,
    /** One of the account's endpoints that is not deleted (a listing cursor). */
    existsLive: live.owns,
    /** The account's endpoints that are not deleted, newest first, after the id `after`. */
    list: live.list,
    /** The account's endpoints that are not deleted, oldest first: who an event goes to. */
    liveOfAccount: (accountId: string): LiveEndpoint[] =>
      liveOfAccount.all(accountId).map((r) => ({
        id: r.id,
        url: r.url,
        events: JSON.parse(r.events),
        chaos: r.chaos === null ? null : JSON.parse(r.chaos),
      })),
    /** The account's endpoints that are not deleted, disabled ones included, oldest first. */
    ofAccount: (accountId: string): WebhookEndpointRecord[] =>
      ofAccount.all(accountId).map(fromRow),
    markDeleted: (id: string, at: string) => void markDeleted.run(at, id),
    /** Any account's endpoint by id, with the start of its run of failed attempts. */
    find: (id: string): (WebhookEndpointRecord & { failingSince: number | null }) | undefined => {
      const row = anyById.get(id);
      return row && { ...fromRow(row), failingSince: row.failing_since };
    },
    /** Disabled at a virtual instant (it gets nothing more), or enabled again (`null`). */
    setDisabled: (id: string, at: string | null) => void setDisabled.run(at, id),
    /** Virtual ms of the first failed attempt since the last delivered one; null after a success. */
    setFailingSince: (id: string, at: number | null) => void setFailingSince.run(at, id),
    /** The endpoint's receiver chaos from now on (null: none). */
    setChaos: (id: string, chaos: WebhookChaos | null) =>
      void setChaos.run(chaos && JSON.stringify(chaos), id),
  };
}
export type WebhookEndpointRepo = ReturnType<typeof createWebhookEndpointRepo>;

declare module '../../core/sqlite/store.js' {
  interface Repositories {
    webhookEndpoints: WebhookEndpointRepo;
  }
}
