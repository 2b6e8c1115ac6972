import type { Database } from 'better-sqlite3';
import { RUN_KIND_ADDRESSES } from '../contract/run-kinds.js';
import type { RunRecord, RunState } from '../domain/records.js';
import type { Page } from './cursor-list.js';
import type { DueCache } from './due-cache.js';
import { unpackText } from './packed-text.js';
import { decodeState, encodeState } from './state-codec.js';

interface RunRow {
  seq: number;
  id: string;
  account_id: string;
  kind: string;
  request: string;
  /** JSON text, or packed once the run has succeeded (store/state-codec.ts). */
  state: string | Buffer;
  created_at: string;
  next_at: number | null;
}

function fromRow(row: RunRow): RunRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    kind: row.kind,
    createdAt: row.created_at,
    request: JSON.parse(row.request),
    state: decodeState(row.state),
    nextAt: row.next_at,
  };
}

/**
 * The runs holding a slot, by the index on (account, kind, status, seq): naming every kind lets
 * SQLite seek each (kind, status) pair instead of reading all of an account's runs.
 */
const KINDS = Object.values(RUN_KIND_ADDRESSES)
  .map((k) => `'${k.name}'`)
  .join(', ');
const ACTIVE = "status IN ('queued', 'processing', 'canceling')";

/**
 * Runs of every kind (DESIGN.md section 7), one table: a run's `kind` names its `RunKind`.
 * Reads by id answer any kind (ids are unique and carry their kind's prefix); listings and
 * cursors are per kind. The only code that writes the table (test/store/due-cache.test.ts
 * keeps it so): each write tells `dueCache` how the run's `next_at` moved, from the value it had
 * when read (remembered per record) to the one written.
 */
export function createRunRepo(db: Database, dueCache: DueCache) {
  const stored = rowMemory();
  const missing = missingRuns(db);
  // A state's JSON for the statements that look into it, whether packed or not.
  db.function('run_state_json', { deterministic: true }, (s) =>
    s === null ? null : unpackText(s as string | Uint8Array),
  );
  const read = (row: RunRow): RunRecord => {
    const record = fromRow(row);
    stored.set(record, {
      seq: row.seq,
      nextAt: record.nextAt,
      status: record.state.status,
      state: record.state,
      text: row.state,
    });
    return record;
  };
  const insert = db.prepare(
    'INSERT INTO runs (id, account_id, kind, request, state, status, created_at, next_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const due = db.prepare<[string, number], RunRow>(
    'SELECT * FROM runs WHERE account_id = ? AND next_at <= ? ORDER BY seq',
  );
  const byToken = db.prepare<[string], RunRow>(
    `SELECT * FROM runs WHERE status = 'succeeded'
        AND json_extract(run_state_json(state), '$.download_token') = ?`,
  );
  const active = db.prepare<[string], RunRow>(
    `SELECT * FROM runs INDEXED BY runs_kind_status
      WHERE account_id = ? AND kind IN (${KINDS}) AND ${ACTIVE} ORDER BY seq`,
  );
  const activeOfKind = db.prepare<[string, string], RunRow>(
    `SELECT * FROM runs INDEXED BY runs_kind_status
      WHERE account_id = ? AND kind = ? AND ${ACTIVE} ORDER BY seq`,
  );
  const byId = db.prepare<[string, string], RunRow>(
    'SELECT * FROM runs WHERE id = ? AND account_id = ?',
  );
  const ofAccount = db.prepare<[string], RunRow>(
    'SELECT * FROM runs WHERE account_id = ? ORDER BY seq',
  );
  const ofKind = db.prepare<[string, string], RunRow>(
    'SELECT * FROM runs WHERE account_id = ? AND kind = ? ORDER BY seq',
  );
  const exists = db.prepare<[string], { 1: number }>('SELECT 1 FROM runs WHERE id = ?');
  const seqOf = db.prepare<[string, string, string], { seq: number }>(
    'SELECT seq FROM runs WHERE id = ? AND account_id = ? AND kind = ?',
  );
  const page = db.prepare<[string, string, number, number], RunRow>(
    'SELECT * FROM runs WHERE account_id = ? AND kind = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
  );
  const pageByStatus = db.prepare<[string, string, string, number, number], RunRow>(
    `SELECT * FROM runs WHERE account_id = ? AND kind = ? AND status = ? AND seq < ?
       ORDER BY seq DESC LIMIT ?`,
  );
  const setState = db.prepare('UPDATE runs SET state = ?, status = ?, next_at = ? WHERE id = ?');
  // By rowid, with the id checked on the row: no seek in the id index. Without `status` when
  // it did not change: SQLite rewrites an index entry for every column set, changed or not.
  const setStateAt = db.prepare(
    'UPDATE runs SET state = ?, status = ?, next_at = ? WHERE seq = ? AND id = ?',
  );
  const setStateKeepStatus = db.prepare(
    'UPDATE runs SET state = ?, next_at = ? WHERE seq = ? AND id = ?',
  );
  const produced = db.prepare<[string], { policy: string; completed_at: string; id: string }>(
    `SELECT id, json_extract(json, '$.result.policy') AS policy,
            json_extract(json, '$.completed_at') AS completed_at
       FROM (SELECT id, seq, run_state_json(state) AS json FROM runs
              WHERE account_id = ? AND status = 'succeeded')
      WHERE json_extract(json, '$.result.policy.id') IS NOT NULL ORDER BY seq`,
  );
  return {
    /**
     * The policies the account's succeeded runs produced (`result.policy`: a training or RL
     * run's), oldest first, each with the run that produced it.
     */
    producedPolicies: (accountId: string) =>
      produced.all(accountId).map((r) => ({
        ...(JSON.parse(r.policy) as { id: string; name: string; robot: string }),
        created_at: r.completed_at,
        source_run: r.id,
      })),
    insert: (r: RunRecord) => {
      const status = r.state.status ?? 'queued';
      const text = encodeState(r.state, r.kind);
      const { lastInsertRowid } = insert.run(
        r.id,
        r.accountId,
        r.kind,
        JSON.stringify(r.request),
        text,
        status,
        r.createdAt,
        r.nextAt,
      );
      dueCache.moved(r.accountId, stored.get(r)?.nextAt, r.nextAt);
      const seq = Number(lastInsertRowid);
      stored.set(r, { seq, nextAt: r.nextAt, status, state: r.state, text });
      missing.found(r.accountId, r.id);
    },
    /** Scoped to the account: another account's id reads as absent (API document, 4.1). */
    get: (accountId: string, id: string): RunRecord | undefined => {
      if (missing.has(accountId, id)) return undefined;
      const row = byId.get(id, accountId);
      if (!row) {
        missing.add(accountId, id);
        return undefined;
      }
      return read(row);
    },
    /** Any account's: ids are unique across the emulator. */
    exists: (id: string): boolean => exists.get(id) !== undefined,
    /** One of the account's runs of this kind (a listing cursor). */
    owns: (accountId: string, kind: string, id: string): boolean =>
      seqOf.get(id, accountId, kind) !== undefined,
    /** Writes the state, and its status into the `status` column listings and slots read. */
    saveState: (r: RunRecord) => {
      const was = stored.get(r);
      const { status } = r.state;
      const text = encodeState(r.state, r.kind);
      if (!was) setState.run(text, status, r.nextAt, r.id);
      else if (was.status === status) setStateKeepStatus.run(text, r.nextAt, was.seq, r.id);
      else setStateAt.run(text, status, r.nextAt, was.seq, r.id);
      dueCache.moved(r.accountId, was?.nextAt, r.nextAt);
      if (was) Object.assign(was, { nextAt: r.nextAt, status, state: r.state, text });
    },
    /**
     * What the row holds for the record's state (JSON text, or packed once succeeded), as it is
     * while `record.state` is still the object read or written, else encoded anew (a state
     * changed in place is not seen: callers replace it).
     */
    storedState: (r: RunRecord): string | Buffer => {
      const was = stored.get(r);
      return was?.state === r.state ? was.text : encodeState(r.state, r.kind);
    },
    /** The account's runs with a transition due at or before `now`, in due order. */
    due: (accountId: string, now: number): RunRecord[] => due.all(accountId, now).map(read),
    /** The run a signed download link points at, whatever its account. */
    findByDownloadToken: (token: string): RunRecord | undefined => {
      const row = byToken.get(token);
      return row && read(row);
    },
    /** Newest first, by `status` if given, after the run `after` (callers check it with `owns`). */
    list: (
      accountId: string,
      kind: string,
      opts: { status?: string; after?: string; limit: number },
    ): Page<RunRecord> => {
      const from =
        (opts.after && seqOf.get(opts.after, accountId, kind)?.seq) || Number.MAX_SAFE_INTEGER;
      const rows = opts.status
        ? pageByStatus.all(accountId, kind, opts.status, from, opts.limit + 1)
        : page.all(accountId, kind, from, opts.limit + 1);
      return { data: rows.slice(0, opts.limit).map(read), hasMore: rows.length > opts.limit };
    },
    /** Every run of the account (of one kind, if given), oldest first (usage totals). */
    allOf: (accountId: string, kind?: string): RunRecord[] =>
      (kind === undefined ? ofAccount.all(accountId) : ofKind.all(accountId, kind)).map(read),
    /**
     * The runs holding a slot (queued, processing or canceling; `concurrent_runs`, tiers'
     * capacity), oldest first: every kind's, or one kind's.
     */
    active: (accountId: string, kind?: string): RunRecord[] =>
      (kind === undefined ? active.all(accountId) : activeOfKind.all(accountId, kind)).map(read),
  };
}
export type RunRepo = ReturnType<typeof createRunRepo>;

/** What the row of a record read or written holds: where it is, and the columns a write moves. */
interface Stored {
  seq: number;
  nextAt: number | null;
  status: string;
  /** The state object read or written, and what the row holds for it. */
  state: RunState;
  text: string | Buffer;
}

/**
 * What each record read or written remembers of its row, for this repository only: kept on the
 * record itself, under a symbol of the repository's own and not enumerable (no spread or JSON
 * copies it). A `WeakMap` keyed by the record did the same, but V8's scavenger may keep the entry
 * of a young key alive (a plain loop that drops its keys: about 4.8 MB surviving each scavenge
 * on Node 20, 22 and 24, against 0.2 MB without the map). Under the bench's resume load at 50
 * connections (issue 12), measured with `--trace-gc-nvp`: 2.8 to 3.9 KB survived each scavenge
 * per request with the map, 1.9 KB without; scavenging took 7.9 to 9.1 us a request, now 4.2 to
 * 5.1.
 */
function rowMemory() {
  const key = Symbol('stored row');
  type Tracked = RunRecord & { [key]?: Stored };
  return {
    get: (record: RunRecord): Stored | undefined => (record as Tracked)[key],
    set(record: RunRecord, row: Stored): void {
      Object.defineProperty(record, key, { value: row, writable: true, configurable: true });
    },
  };
}

/** Unknown ids remembered at most, per store; emptied when full, so bounded. */
const MISSING_MAX = 1024;

/**
 * The (account, id) pairs `get` found no run for: an SDK's error tests ask for the same unknown
 * id over and over, and each miss was an SQLite read, about 7 us of a 404 under load (issue 12,
 * by CPU profile). Exact because the repository is the only writer of runs: its insert forgets
 * the pair; a delete only makes more misses; nothing is remembered inside a transaction, whose
 * rollback could bring a deleted run back.
 */
function missingRuns(db: Database) {
  const pairs = new Set<string>();
  return {
    has: (accountId: string, id: string) => pairs.has(`${accountId}\0${id}`),
    add(accountId: string, id: string): void {
      if (db.inTransaction) return;
      if (pairs.size >= MISSING_MAX) pairs.clear();
      pairs.add(`${accountId}\0${id}`);
    },
    found: (accountId: string, id: string) => void pairs.delete(`${accountId}\0${id}`),
  };
}

/** The SDK log lines of runs, in print order. */
export function createRunLogRepo(db: Database) {
  const insert = db.prepare('INSERT INTO run_logs (run_id, seq, line) VALUES (?, ?, ?)');
  const clear = db.prepare('DELETE FROM run_logs WHERE run_id = ?');
  const tail = db.prepare<[string, number], { line: string }>(
    'SELECT line FROM (SELECT seq, line FROM run_logs WHERE run_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq',
  );
  const count = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM run_logs WHERE run_id = ?',
  );
  return {
    replace: (runId: string, lines: string[]) => {
      clear.run(runId);
      for (const [i, line] of lines.entries()) insert.run(runId, i, line);
    },
    append: (runId: string, lines: string[]) => {
      let seq = count.get(runId)?.n ?? 0;
      for (const line of lines) insert.run(runId, seq++, line);
    },
    tail: (runId: string, limit: number): string[] => tail.all(runId, limit).map((r) => r.line),
  };
}
export type RunLogRepo = ReturnType<typeof createRunLogRepo>;
