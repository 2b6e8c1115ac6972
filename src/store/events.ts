import type { Database, Statement } from 'better-sqlite3';
import type { EventType } from '../contract/events.js';
import type { EventRecord, EventSnapshot } from '../domain/event-view.js';
import type { RunState } from '../domain/records.js';

interface EventRow {
  seq: number;
  id: string;
  account_id: string;
  type: string;
  resource_id: string;
  previous_status: string | null;
  snapshot: string;
  created_at: string;
  /** From the run the event is about (a join): what a stored state needs to be a snapshot. */
  run_kind: string | null;
  run_request: string | null;
  run_created_at: string | null;
}

/**
 * What an event row stores of a run's snapshot: its state only. The run's id, kind, creation
 * time and request never change and are the run's row (issue 12 item 4: they were a third of
 * every event). Rows written before hold a whole snapshot (`kind` set), read as they are.
 */
type StoredSnapshot = EventSnapshot | { state: RunState };

function toStored(snapshot: EventSnapshot): StoredSnapshot {
  return snapshot.kind === 'run' ? { state: snapshot.run.state } : snapshot;
}

function snapshotOf(row: EventRow): EventSnapshot {
  const stored = JSON.parse(row.snapshot) as StoredSnapshot;
  if ('kind' in stored) return stored;
  return {
    kind: 'run',
    runKind: row.run_kind ?? 'evaluation',
    run: {
      id: row.resource_id,
      createdAt: row.run_created_at ?? row.created_at,
      request: JSON.parse(row.run_request ?? '{}'),
      state: stored.state,
    },
  };
}

const fromRow = (row: EventRow): EventRecord => ({
  id: row.id,
  accountId: row.account_id,
  type: row.type as EventType,
  resourceId: row.resource_id,
  previousStatus: row.previous_status,
  snapshot: snapshotOf(row),
  createdAt: row.created_at,
});

/** An event row with its run's unchanging fields. */
const SELECT = `SELECT e.*, r.kind AS run_kind, r.request AS run_request, r.created_at AS run_created_at
  FROM events e LEFT JOIN runs r ON r.id = e.resource_id`;

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
    `${SELECT} WHERE e.id = ? AND e.account_id = ?`,
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
      const where = ['e.account_id = @account', 'e.seq < @from'];
      if (filter.type !== undefined) where.push('e.type GLOB @type');
      if (filter.resource !== undefined) where.push('e.resource_id = @resource');
      statement = db.prepare<unknown[], EventRow>(
        `${SELECT} WHERE ${where.join(' AND ')} ORDER BY e.seq DESC LIMIT @limit`,
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
        JSON.stringify(toStored(e.snapshot)),
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
