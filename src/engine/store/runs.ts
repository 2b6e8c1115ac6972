import type { Page } from '../../core/sqlite/cursor-list.js';
import type { Database } from '../../core/sqlite/sqlite.js';
import { writtenElsewhere } from '../../core/sqlite/written-elsewhere.js';
import type { RunRecord } from '../records.js';
import { stateFromText, stateToText } from './run-state-text.js';

interface RunRow {
  seq: number;
  id: string;
  account_id: string;
  kind: string;
  request: string;
  state: string;
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
    state: stateFromText(row.state),
    nextAt: row.next_at,
  };
}

/** The statements of the runs table, prepared once per store. */
function prepareRunStatements(db: Database) {
  return {
    insert: db.prepare(
      'INSERT INTO runs (id, account_id, kind, request, state, status, created_at, next_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    due: db.prepare<[string, number], RunRow>(
      'SELECT * FROM runs WHERE account_id = ? AND next_at <= ? ORDER BY seq',
    ),
    // `next_at IS NOT NULL` lets SQLite answer from the partial index on (account_id, next_at).
    earliest: db.prepare<[string], { at: number | null }>(
      'SELECT MIN(next_at) AS at FROM runs WHERE account_id = ? AND next_at IS NOT NULL',
    ),
    byToken: db.prepare<[string], RunRow>(
      `SELECT * FROM runs WHERE status = 'succeeded' AND json_extract(state, '$.download_token') = ?`,
    ),
    // The runs still moving, few at a time: one kind's are picked from them (`active`).
    active: db.prepare<[string], RunRow>(
      `SELECT * FROM runs WHERE account_id = ? AND status IN ('queued', 'processing', 'canceling')
        ORDER BY seq`,
    ),
    byId: db.prepare<[string, string], RunRow>(
      'SELECT * FROM runs WHERE id = ? AND account_id = ?',
    ),
    ofAccount: db.prepare<[string], RunRow>('SELECT * FROM runs WHERE account_id = ? ORDER BY seq'),
    ofKind: db.prepare<[string, string], RunRow>(
      'SELECT * FROM runs WHERE account_id = ? AND kind = ? ORDER BY seq',
    ),
    exists: db.prepare<[string], { 1: number }>('SELECT 1 FROM runs WHERE id = ?'),
    seqOf: db.prepare<[string, string, string], { seq: number }>(
      'SELECT seq FROM runs WHERE id = ? AND account_id = ? AND kind = ?',
    ),
    page: db.prepare<[string, string, number, number], RunRow>(
      'SELECT * FROM runs WHERE account_id = ? AND kind = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
    ),
    pageByStatus: db.prepare<[string, string, string, number, number], RunRow>(
      `SELECT * FROM runs WHERE account_id = ? AND kind = ? AND status = ? AND seq < ?
         ORDER BY seq DESC LIMIT ?`,
    ),
    // Every kind's runs of the account, newest first (the inspector); `?` null matches any.
    pageAll: db.prepare<
      [{ account: string; from: number; kind: string | null; status: string | null; n: number }],
      RunRow
    >(
      `SELECT * FROM runs WHERE account_id = @account AND seq < @from
         AND (@kind IS NULL OR kind = @kind) AND (@status IS NULL OR status = @status)
       ORDER BY seq DESC LIMIT @n`,
    ),
    owner: db.prepare<[string], { account_id: string }>('SELECT account_id FROM runs WHERE id = ?'),
    seqAny: db.prepare<[string, string], { seq: number }>(
      'SELECT seq FROM runs WHERE id = ? AND account_id = ?',
    ),
    setState: db.prepare('UPDATE runs SET state = ?, status = ?, next_at = ? WHERE id = ?'),
    owing: db.prepare<[], { account_id: string; id: string }>(
      `SELECT account_id, id FROM runs
        WHERE status = 'succeeded' AND json_extract(state, '$.archive_pending') IS NOT NULL
        ORDER BY seq`,
    ),
    produced: db.prepare<[string], { policy: string; completed_at: string; id: string }>(
      `SELECT id, json_extract(state, '$.result.policy') AS policy,
              json_extract(state, '$.completed_at') AS completed_at
         FROM runs
        WHERE account_id = ? AND status = 'succeeded'
          AND json_extract(state, '$.result.policy.id') IS NOT NULL
        ORDER BY seq`,
    ),
  };
}
type RunStatements = ReturnType<typeof prepareRunStatements>;

/** Writing a run: its first row, then each new state. */
function runWrites(s: RunStatements) {
  return {
    insert: (r: RunRecord) =>
      void s.insert.run(
        r.id,
        r.accountId,
        r.kind,
        JSON.stringify(r.request),
        stateToText(r.state),
        r.state.status ?? 'queued',
        r.createdAt,
        r.nextAt,
      ),
    /** Writes the state, and its status into the `status` column listings and slots read. */
    saveState: (r: RunRecord) =>
      void s.setState.run(stateToText(r.state), r.state.status, r.nextAt, r.id),
  };
}

/** How many ids `unknownIds` remembers before it forgets them all. */
const UNKNOWN_IDS_MAX = 10_000;

/**
 * The ids an account was asked for and has no run by, remembered while the database is unchanged:
 * this connection's `total_changes()` counts every row any statement writes (a create, a settle, a
 * restore, a scenario load), and another connection to a file changes `data_version`. Either
 * forgets all. An SDK's error tests ask for one unknown id thousands of times, and each asked
 * SQLite: about 6 us of server CPU a 404, cache-cold (docs/development.md "Why it is fast"). Not a
 * trigger on the runs: any trigger on a table turns a snapshot's restore of it from a copy of
 * stored records into a write a row (a 1,000-run restore: 16 ms with one, 8.7 without).
 */
function unknownIds(db: Database) {
  const unknown = new Set<string>();
  const keyOf = (accountId: string, id: string) => `${accountId} ${id}`;
  const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  const elsewhere = writtenElsewhere(db);
  let seenChanges = -1;
  /** Forgets all if the database was written since the last look. */
  const fresh = () => {
    const changed = changes.get() ?? 0;
    if (elsewhere() || changed !== seenChanges) unknown.clear();
    seenChanges = changed;
  };
  return {
    has(accountId: string, id: string): boolean {
      if (unknown.size === 0) return false;
      fresh();
      return unknown.has(keyOf(accountId, id));
    },
    add(accountId: string, id: string): void {
      fresh();
      if (unknown.size >= UNKNOWN_IDS_MAX) unknown.clear();
      unknown.add(keyOf(accountId, id));
    },
  };
}

/** Reading one run: by id, by cursor, by download token. */
function runLookups(s: RunStatements, unknown: ReturnType<typeof unknownIds>) {
  return {
    /** Scoped to the account: another account's id reads as absent (API document, 4.1). */
    get: (accountId: string, id: string): RunRecord | undefined => {
      if (unknown.has(accountId, id)) return undefined;
      const row = s.byId.get(id, accountId);
      if (!row) unknown.add(accountId, id);
      return row && fromRow(row);
    },
    /** The account a run of any account belongs to (the control API's reads by run id). */
    ownerOf: (id: string): string | undefined => s.owner.get(id)?.account_id,
    /** Any account's: ids are unique across the emulator. */
    exists: (id: string): boolean => s.exists.get(id) !== undefined,
    /** One of the account's runs of this kind (a listing cursor). */
    owns: (accountId: string, kind: string, id: string): boolean =>
      s.seqOf.get(id, accountId, kind) !== undefined,
    /** The run a signed download link points at, whatever its account. */
    findByDownloadToken: (token: string): RunRecord | undefined => {
      const row = s.byToken.get(token);
      return row && fromRow(row);
    },
  };
}

/** Reading many runs: pages, totals, and the policies they produced. */
function runListings(s: RunStatements) {
  return {
    /**
     * The policies the account's succeeded runs produced (`result.policy`: a training or RL
     * run's), oldest first, each with the run that produced it.
     */
    producedPolicies: (accountId: string) =>
      s.produced.all(accountId).map((r) => ({
        ...(JSON.parse(r.policy) as { id: string; name: string; robot: string }),
        created_at: r.completed_at,
        source_run: r.id,
      })),
    /** Newest first, by `status` if given, after the run `after` (callers check it with `owns`). */
    list: (
      accountId: string,
      kind: string,
      opts: { status?: string; after?: string; limit: number },
    ): Page<RunRecord> => {
      const from =
        (opts.after && s.seqOf.get(opts.after, accountId, kind)?.seq) || Number.MAX_SAFE_INTEGER;
      const rows = opts.status
        ? s.pageByStatus.all(accountId, kind, opts.status, from, opts.limit + 1)
        : s.page.all(accountId, kind, from, opts.limit + 1);
      return { data: rows.slice(0, opts.limit).map(fromRow), hasMore: rows.length > opts.limit };
    },
    /** Newest first, of every kind (or `kind`), by `status` if given, after the run `after`. */
    listAll: (
      accountId: string,
      opts: { kind?: string; status?: string; after?: string; limit: number },
    ): Page<RunRecord> => {
      const from =
        (opts.after && s.seqAny.get(opts.after, accountId)?.seq) || Number.MAX_SAFE_INTEGER;
      const rows = s.pageAll.all({
        account: accountId,
        from,
        kind: opts.kind ?? null,
        status: opts.status ?? null,
        n: opts.limit + 1,
      });
      return { data: rows.slice(0, opts.limit).map(fromRow), hasMore: rows.length > opts.limit };
    },
    /** Every run of the account (of one kind, if given), oldest first (usage totals). */
    allOf: (accountId: string, kind?: string): RunRecord[] =>
      (kind === undefined ? s.ofAccount.all(accountId) : s.ofKind.all(accountId, kind)).map(
        fromRow,
      ),
  };
}

/** What the clock and the slots read: due transitions and the runs still moving. */
function runSchedule(s: RunStatements) {
  return {
    /** The earliest `next_at` of the account's runs, null if none: when settling has work. */
    earliestDue: (accountId: string): number | null => s.earliest.get(accountId)?.at ?? null,
    /** Succeeded runs whose archives are still to build (a restart finds them), oldest first. */
    owingArchives: () => s.owing.all().map((r) => ({ accountId: r.account_id, id: r.id })),
    /** The account's runs with a transition due at or before `now`, in due order. */
    due: (accountId: string, now: number): RunRecord[] => s.due.all(accountId, now).map(fromRow),
    /**
     * The runs holding a slot (queued, processing or canceling; `concurrent_runs`, tiers'
     * capacity), oldest first: every kind's, or one kind's.
     */
    active: (accountId: string, kind?: string): RunRecord[] => {
      const runs = s.active.all(accountId).map(fromRow);
      return kind === undefined ? runs : runs.filter((r) => r.kind === kind);
    },
  };
}

/**
 * Runs of every kind (DESIGN.md section 7), one table: a run's `kind` names its `RunKind`.
 * Reads by id answer any kind (ids are unique and carry their kind's prefix); listings and
 * cursors are per kind. The `status` column mirrors `state.status` for listings and slots.
 */
export function createRunRepo(db: Database) {
  const s = prepareRunStatements(db);
  const lookups = runLookups(s, unknownIds(db));
  return { ...runWrites(s), ...lookups, ...runListings(s), ...runSchedule(s) };
}
export type RunRepo = ReturnType<typeof createRunRepo>;

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
