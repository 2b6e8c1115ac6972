import type { Database } from '../../core/sqlite/sqlite.js';
import type { EventRecord } from '../../engine/timeline/event-view.js';
import { chaosQueries, prepareChaosStatements } from './deliveries-chaos-store.js';
import type { WebhookChaos } from './records.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  /** The series it belongs to: 1, and one more for each redelivery. */
  series: number;
  /** Its number in the series (1-based): the retry schedule's step. */
  number: number;
  /** Virtual ms it was due on the account's clock (its schedule instant). */
  at: number;
  /** Wall ms when it started. */
  wallAt: number;
  statusCode: number | null;
  error: string | null;
  /** The receiver's answer body, cut after 2,048 characters (absent in records made before it). */
  responseBody?: string | null;
  /** Wall ms it took; null while it is in flight. */
  durationMs: number | null;
}

export interface Delivery {
  id: string;
  seq: number;
  accountId: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  url: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Attempt series started: 1, and one more for each redelivery. */
  series: number;
  /** Virtual ms of the next attempt while pending, else null. */
  nextAt: number | null;
  /** Wall ms when it was enqueued. */
  createdAt: number;
  /** The receiver chaos it carries (chaos.ts), null for an ordinary delivery. */
  chaos: string | null;
}

export interface DeliveryFilter {
  account?: string | undefined;
  endpoint?: string | undefined;
  event?: string | undefined;
  status?: DeliveryStatus | undefined;
  /** A delivery id: only those after it (in this order). */
  after?: string | undefined;
  limit?: number | undefined;
  /** `oldest` first (default) or `newest` first. */
  order?: 'oldest' | 'newest' | undefined;
}

/** An event and an endpoint it goes to, once its transaction commits. */
export interface StagedDelivery {
  event: Pick<EventRecord, 'id' | 'accountId' | 'type' | 'createdAt'>;
  endpoint: { id: string; url: string; chaos?: WebhookChaos | null };
}

/** A delivery to record: its first attempt due at virtual ms `nextAt` (null: it waits). */
export interface PlannedDelivery extends StagedDelivery {
  nextAt: number | null;
  chaos: string | null;
}

interface Row {
  seq: number;
  account_id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  url: string;
  status: string;
  attempts: string;
  next_at: number | null;
  series: number;
  created_at: number;
  chaos: string | null;
}

/** `whdl_` + the row's sequence number: ids follow delivery order. */
const deliveryId = (seq: number) => `whdl_${String(seq).padStart(8, '0')}`;
const seqOf = (id: string): number | undefined => {
  const m = /^whdl_(\d{1,15})$/.exec(id);
  return m ? Number(m[1]) : undefined;
};

const fromRow = (r: Row): Delivery => ({
  id: deliveryId(r.seq),
  seq: r.seq,
  accountId: r.account_id,
  eventId: r.event_id,
  eventType: r.event_type,
  endpointId: r.endpoint_id,
  url: r.url,
  status: r.status as DeliveryStatus,
  attempts: JSON.parse(r.attempts),
  series: r.series,
  nextAt: r.status === 'pending' ? r.next_at : null,
  createdAt: r.created_at,
  chaos: r.chaos,
});

/** The statements of the delivery records, prepared once per store. */
function prepareDeliveryStatements(db: Database) {
  return {
    insert: db.prepare(
      `INSERT INTO webhook_deliveries (account_id, event_id, event_type, endpoint_id, url, status, next_at, created_at, chaos)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
    ),
    // The endpoint's pending delivery due first; at one instant, the oldest event first. One
    // without `next_at` waits for something else (a duplicate, for its event's acceptance).
    head: db.prepare<[string], Row>(
      `SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'pending'
         AND next_at IS NOT NULL ORDER BY next_at, seq LIMIT 1`,
    ),
    ...prepareChaosStatements(db),
    bySeq: db.prepare<[number], Row>('SELECT * FROM webhook_deliveries WHERE seq = ?'),
    pendingEndpoints: db.prepare<[], { endpoint_id: string; account_id: string }>(
      `SELECT DISTINCT endpoint_id, account_id FROM webhook_deliveries WHERE status = 'pending'`,
    ),
    update: db.prepare(
      'UPDATE webhook_deliveries SET status = ?, attempts = ?, next_at = ?, series = ? WHERE seq = ?',
    ),
    countFinished: db.prepare<[], { n: number }>(
      `SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status IN ('delivered', 'failed')`,
    ),
    // A scan in seq order from the oldest (NOT INDEXED): it stops after the first `n` finished
    // rows, where the status index would sort every finished row on each prune.
    pruneOldest: db.prepare(
      `DELETE FROM webhook_deliveries WHERE seq IN (SELECT seq FROM webhook_deliveries NOT INDEXED
       WHERE status != 'pending' ORDER BY seq LIMIT ?)`,
    ),
    removeAccount: db.prepare('DELETE FROM webhook_deliveries WHERE account_id = ?'),
    removeAll: db.prepare('DELETE FROM webhook_deliveries'),
    // Ids restart at whdl_00000001 after a full reset, as the rest of the world does.
    restartIds: db.prepare("DELETE FROM sqlite_sequence WHERE name = 'webhook_deliveries'"),
    list: db.prepare<[Record<string, unknown>], Row>(
      `SELECT * FROM webhook_deliveries WHERE seq > @after AND (@status IS NULL OR status = @status)
         AND (@account IS NULL OR account_id = @account) AND (@event IS NULL OR event_id = @event)
         AND (@endpoint IS NULL OR endpoint_id = @endpoint) ORDER BY seq LIMIT @limit`,
    ),
    listNewest: db.prepare<[Record<string, unknown>], Row>(
      `SELECT * FROM webhook_deliveries WHERE seq < @after AND (@status IS NULL OR status = @status)
         AND (@account IS NULL OR account_id = @account) AND (@event IS NULL OR event_id = @event)
         AND (@endpoint IS NULL OR endpoint_id = @endpoint) ORDER BY seq DESC LIMIT @limit`,
    ),
  };
}

/** Delivery records: small rows, no bodies; pruned by the dispatcher. */
export function createDeliveryRepo(db: Database) {
  const s = prepareDeliveryStatements(db);
  return {
    /** Inserts in one transaction, enqueued at wall ms `createdAt`, each due at its `nextAt`. */
    insertAll: (planned: readonly PlannedDelivery[], createdAt: number) =>
      db.transaction(() => {
        for (const { event, endpoint, nextAt, chaos } of planned)
          s.insert.run(
            event.accountId,
            event.id,
            event.type,
            endpoint.id,
            endpoint.url,
            nextAt,
            createdAt,
            chaos,
          );
      })(),
    ...chaosQueries(s),
    /** The endpoint's pending delivery due first: the head of its queue. */
    head: (endpointId: string): Delivery | undefined => {
      const row = s.head.get(endpointId);
      return row && fromRow(row);
    },
    /** One delivery by its id. */
    get: (id: string): Delivery | undefined => {
      const seq = seqOf(id);
      const row = seq === undefined ? undefined : s.bySeq.get(seq);
      return row && fromRow(row);
    },
    pendingEndpoints: () =>
      s.pendingEndpoints.all().map((r) => ({ endpointId: r.endpoint_id, accountId: r.account_id })),
    save: (d: Delivery) =>
      void s.update.run(
        d.status,
        JSON.stringify(d.attempts),
        d.status === 'pending' ? d.nextAt : null,
        d.series,
        d.seq,
      ),
    countFinished: () => s.countFinished.get()!.n,
    /** Deletes the `n` oldest delivered or failed records. */
    pruneFinished: (n: number) => void s.pruneOldest.run(n),
    removeAccount: (accountId: string) => void s.removeAccount.run(accountId),
    removeAll: () =>
      db.transaction(() => {
        s.removeAll.run();
        s.restartIds.run();
      })(),
    /** Oldest (or newest) first, filtered; `hasMore` when a further page exists. */
    list: (f: DeliveryFilter) => {
      const limit = f.limit ?? 100;
      const newest = f.order === 'newest';
      const after = f.after !== undefined ? seqOf(f.after) : undefined;
      const rows = (newest ? s.listNewest : s.list).all({
        account: f.account ?? null,
        endpoint: f.endpoint ?? null,
        event: f.event ?? null,
        status: f.status ?? null,
        after: after || (newest ? Number.MAX_SAFE_INTEGER : 0),
        limit: limit + 1,
      });
      return { data: rows.slice(0, limit).map(fromRow), hasMore: rows.length > limit };
    },
  };
}
export type DeliveryRepo = ReturnType<typeof createDeliveryRepo>;
