import type { Database, Statement } from 'better-sqlite3';
import type { EventType } from '../contract/events.js';
import type { EventRecord } from '../domain/event-view.js';

interface EventRow {
  seq: number;
  id: string;
  account_id: string;
  type: string;
  resource_id: string;
  previous_status: string | null;
  snapshot: string;
  created_at: string;
}

const fromRow = (row: EventRow): EventRecord => ({
  id: row.id,
  accountId: row.account_id,
  type: row.type as EventType,
  resourceId: row.resource_id,
  previousStatus: row.previous_status,
  snapshot: JSON.parse(row.snapshot),
  createdAt: row.created_at,
});

export interface EventFilter {
  /** An exact type, or a GLOB such as `evaluation.*` (the route allows only those). */
  type?: string;
  resource?: string;
  /** The id of the last event of the previous page, one of the account's (callers check). */
  after?: string;
  limit: number;
}

/** The event log: rows in the order the transitions happened (`seq`), per account. */
export function createEventRepo(db: Database) {
  const insert = db.prepare(
    `INSERT INTO events (id, account_id, type, resource_id, previous_status, snapshot, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string, string], EventRow>(
    'SELECT * FROM events WHERE id = ? AND account_id = ?',
  );
  const seqOf = db.prepare<[string, string], { seq: number }>(
    'SELECT seq FROM events WHERE id = ? AND account_id = ?',
  );
  // One statement per combination of filters, prepared on first use, so each can use its index.
  const lists = new Map<string, Statement<unknown[], EventRow>>();
  const listStatement = (filter: EventFilter) => {
    const key = `${filter.type !== undefined}${filter.resource !== undefined}`;
    let statement = lists.get(key);
    if (!statement) {
      const where = ['account_id = @account', 'seq < @from'];
      if (filter.type !== undefined) where.push('type GLOB @type');
      if (filter.resource !== undefined) where.push('resource_id = @resource');
      statement = db.prepare<unknown[], EventRow>(
        `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT @limit`,
      );
      lists.set(key, statement);
    }
    return statement;
  };
  return {
    insert: (e: EventRecord) =>
      void insert.run(
        e.id,
        e.accountId,
        e.type,
        e.resourceId,
        e.previousStatus,
        JSON.stringify(e.snapshot),
        e.createdAt,
      ),
    /** Scoped to the account: another account's id reads as absent. */
    get: (accountId: string, id: string): EventRecord | undefined => {
      const row = byId.get(id, accountId);
      return row && fromRow(row);
    },
    exists: (id: string, accountId: string): boolean => seqOf.get(id, accountId) !== undefined,
    /** Newest first, filtered; `hasMore` when a further page exists. */
    list: (accountId: string, filter: EventFilter) => {
      const from =
        (filter.after && seqOf.get(filter.after, accountId)?.seq) || Number.MAX_SAFE_INTEGER;
      const params: Record<string, unknown> = { account: accountId, from, limit: filter.limit + 1 };
      if (filter.type !== undefined) params.type = filter.type;
      if (filter.resource !== undefined) params.resource = filter.resource;
      const rows = listStatement(filter).all(params);
      return {
        data: rows.slice(0, filter.limit).map(fromRow),
        hasMore: rows.length > filter.limit,
      };
    },
  };
}
export type EventRepo = ReturnType<typeof createEventRepo>;
