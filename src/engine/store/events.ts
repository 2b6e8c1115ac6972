import type { Database, Statement } from '../../core/sqlite/sqlite.js';
import type { RunState } from '../records.js';
import { eventState } from '../timeline/event-state.js';
import type { EventRecord, EventSnapshot, ShownObject } from '../timeline/event-view.js';
import { stateFromText } from './run-state-text.js';

interface EventRow {
  seq: number;
  id: string;
  account_id: string;
  type: string;
  resource_id: string;
  previous_status: string | null;
  snapshot: string | null;
  attempt: number | null;
  n: number | null;
  created_at: string;
  /** From the run the event is about (a join): what the snapshot is made from. */
  run_kind: string | null;
  run_request: string | null;
  run_created_at: string | null;
  run_state: string | null;
}

/**
 * What an event row keeps of the run it is about, so that it does not copy the run. The run's
 * id, kind, creation time and request are the run's row. What the run showed is derived from
 * the state of the event's attempt (domain/event-state.ts): the run's own while the attempt is
 * current, so most rows keep nothing (`snapshot` NULL); a resume's event keeps the state the
 * attempt it replaced ended with (`previous`), for that attempt's events; a run seeded without
 * an attempt keeps what it showed (`state`).
 */
type Stored =
  | { state: RunState }
  | { previous: RunState }
  /** Not a run's event: the body shown, whole (an endpoint's, or a fired event's own). */
  | { object: ShownObject; webhook_metadata: Record<string, unknown> | null };

/** What an event's row keeps beside the event: a seeded run's snapshot, or its attempt's number. */
export interface EventKept {
  /** The account's event counter its id was made from (`nextNumber`). */
  n: number;
  snapshot: EventSnapshot | null;
  attempt: number | null;
  /** For a resume's event: the state the attempt it replaces ended with. */
  previous: RunState | null;
}

function toStored(e: EventKept): string | null {
  let stored: Stored | null = null;
  if (e.previous) stored = { previous: e.previous };
  else if (e.snapshot?.kind === 'object')
    stored = { object: e.snapshot.object, webhook_metadata: e.snapshot.webhookMetadata };
  else if (e.snapshot) stored = { state: e.snapshot.run.state };
  return stored && JSON.stringify(stored);
}

/** An event row with its run's fields. */
const SELECT = `SELECT e.*, r.kind AS run_kind, r.request AS run_request,
    r.created_at AS run_created_at, r.state AS run_state
  FROM events e LEFT JOIN runs r ON r.id = e.resource_id`;

export interface EventFilter {
  /** An exact type, or a GLOB such as `<kind>.*` (the route allows only those). */
  type?: string;
  resource?: string;
  /** The id of the last event of the previous page, one of the account's (callers check). */
  after?: string;
  limit: number;
}

type ReplacedBy = Statement<[string, number], { snapshot: string }>;

/** The statements of the event log, prepared once per store. */
function prepareEventStatements(db: Database) {
  return {
    insert: db.prepare(
      `INSERT INTO events
         (id, account_id, type, resource_id, previous_status, snapshot, attempt, n, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    latestId: db.prepare<[string], { id: string }>(
      'SELECT id FROM events WHERE account_id = ? ORDER BY seq DESC LIMIT 1',
    ),
    lastNumber: db.prepare<[string], { n: number }>(
      'SELECT n FROM events WHERE account_id = ? ORDER BY seq DESC LIMIT 1',
    ),
    byId: db.prepare<[string, string], EventRow>(`${SELECT} WHERE e.id = ? AND e.account_id = ?`),
    seqOf: db.prepare<[string, string], { seq: number }>(
      'SELECT seq FROM events WHERE id = ? AND account_id = ?',
    ),
    replacedBy: db.prepare<[string, number], { snapshot: string }>(
      `SELECT snapshot FROM events
        WHERE resource_id = ? AND attempt = ? AND snapshot IS NOT NULL LIMIT 1`,
    ),
  };
}

/**
 * The state of the event's attempt: the run's own while the attempt is current, else the one
 * the resume that replaced it kept (in the event that started the next attempt).
 */
function attemptState(row: EventRow, replacedBy: ReplacedBy): RunState {
  const current: RunState =
    row.run_state === null ? ({} as RunState) : stateFromText(row.run_state);
  if (current.run?.attempt === row.attempt) return current;
  const next = replacedBy.get(row.resource_id, row.attempt! + 1);
  if (!next)
    throw new Error(`event ${row.id}: attempt ${row.attempt} of ${row.resource_id} left no state`);
  return (JSON.parse(next.snapshot) as { previous: RunState }).previous;
}

/** What the run showed at the event: stored, or derived from the state of its attempt. */
function snapshotOf(
  row: EventRow,
  replacedBy: ReplacedBy,
  stepNounOf: (kind: string) => string | undefined,
): EventSnapshot {
  const stored = row.snapshot === null ? null : (JSON.parse(row.snapshot) as Stored);
  if (stored && 'object' in stored)
    return { kind: 'object', object: stored.object, webhookMetadata: stored.webhook_metadata };
  const kind = row.run_kind ?? row.type.slice(0, row.type.indexOf('.'));
  let state: RunState;
  if (stored && 'state' in stored) state = stored.state;
  else {
    const to = row.type.slice(row.type.indexOf('.') + 1);
    const at = Date.parse(row.created_at);
    state = eventState(attemptState(row, replacedBy), at, to, stepNounOf(kind) ?? 'step');
  }
  return {
    kind: 'run',
    runKind: kind,
    run: {
      id: row.resource_id,
      createdAt: row.run_created_at ?? row.created_at,
      request: JSON.parse(row.run_request ?? '{}'),
      state,
    },
  };
}

/** A list statement per combination of filters, prepared on first use, so each uses its index. */
function listStatements(db: Database) {
  const lists = new Map<string, Statement<unknown[], EventRow>>();
  return (filter: EventFilter) => {
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
}

/** The event log: rows in the order the transitions happened (`seq`), per account. */
export function createEventRepo(db: Database, stepNounOf: (kind: string) => string | undefined) {
  const { insert, lastNumber, latestId, byId, seqOf, replacedBy } = prepareEventStatements(db);
  const listStatement = listStatements(db);
  const fromRow = (row: EventRow): EventRecord => ({
    id: row.id,
    accountId: row.account_id,
    type: row.type,
    resourceId: row.resource_id,
    previousStatus: row.previous_status,
    snapshot: snapshotOf(row, replacedBy, stepNounOf),
    createdAt: row.created_at,
  });
  return {
    insert: (e: Omit<EventRecord, 'snapshot'>, kept: EventKept) =>
      void insert.run(
        e.id,
        e.accountId,
        e.type,
        e.resourceId,
        e.previousStatus,
        toStored(kept),
        kept.attempt,
        kept.n,
        e.createdAt,
      ),
    /**
     * The account's next event counter, from which its next event id is made
     * (runtime/id-factory.ts): one past its last event's, 1 for its first.
     */
    nextNumber: (accountId: string): number => (lastNumber.get(accountId)?.n ?? 0) + 1,
    /** The id of the account's newest event. */
    latestId: (accountId: string): string | undefined => latestId.get(accountId)?.id,
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
