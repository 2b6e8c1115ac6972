import type { Database } from 'better-sqlite3';
import type { EvaluationRecord } from '../domain/records.js';
import { createCursorList } from './cursor-list.js';

interface EvaluationRow {
  id: string;
  account_id: string;
  request: string;
  state: string;
  created_at: string;
  next_at: number | null;
}

function fromRow(row: EvaluationRow): EvaluationRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    createdAt: row.created_at,
    request: JSON.parse(row.request),
    state: JSON.parse(row.state),
    nextAt: row.next_at,
  };
}

export function createEvaluationRepo(db: Database) {
  const insert = db.prepare(
    'INSERT INTO evaluations (id, account_id, request, state, created_at, next_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const due = db.prepare<[string, number], EvaluationRow>(
    'SELECT * FROM evaluations WHERE account_id = ? AND next_at <= ? ORDER BY seq',
  );
  const byToken = db.prepare<[string], EvaluationRow>(
    "SELECT * FROM evaluations WHERE json_extract(state, '$.download_token') = ?",
  );
  const active = db.prepare<[string], EvaluationRow>(
    `SELECT * FROM evaluations WHERE account_id = ?
       AND json_extract(state, '$.status') IN ('queued', 'processing', 'canceling') ORDER BY seq`,
  );
  const byId = db.prepare<[string, string], EvaluationRow>(
    'SELECT * FROM evaluations WHERE id = ? AND account_id = ?',
  );
  const ofAccount = db.prepare<[string], EvaluationRow>(
    'SELECT * FROM evaluations WHERE account_id = ? ORDER BY seq',
  );
  const exists = db.prepare<[string], { 1: number }>('SELECT 1 FROM evaluations WHERE id = ?');
  const cursor = createCursorList(db, 'evaluations', "json_extract(state, '$.status')", fromRow);
  const setState = db.prepare('UPDATE evaluations SET state = ?, next_at = ? WHERE id = ?');
  return {
    insert: (e: EvaluationRecord) =>
      void insert.run(
        e.id,
        e.accountId,
        JSON.stringify(e.request),
        JSON.stringify(e.state),
        e.createdAt,
        e.nextAt,
      ),
    /** Scoped to the account: another account's id reads as absent (API document, 4.1). */
    get: (accountId: string, id: string): EvaluationRecord | undefined => {
      const row = byId.get(id, accountId);
      return row && fromRow(row);
    },
    /** Any account's: ids are unique across the emulator. */
    exists: (id: string): boolean => exists.get(id) !== undefined,
    /** One of the account's runs (a listing cursor). */
    owns: cursor.owns,
    saveState: (e: EvaluationRecord) => void setState.run(JSON.stringify(e.state), e.nextAt, e.id),
    /** The account's runs with a transition due at or before `now`, in due order. */
    due: (accountId: string, now: number): EvaluationRecord[] =>
      due.all(accountId, now).map(fromRow),
    /** The run a signed download link points at, whatever its account. */
    findByDownloadToken: (token: string): EvaluationRecord | undefined => {
      const row = byToken.get(token);
      return row && fromRow(row);
    },
    /** Newest first, by `status` if given, after the run `after` (callers check it with `owns`). */
    list: cursor.list,
    /** Every run of the account, oldest first (usage totals). */
    allOf: (accountId: string): EvaluationRecord[] => ofAccount.all(accountId).map(fromRow),
    /** The runs holding a slot (queued, processing or canceling; `concurrent_runs`), oldest first. */
    active: (accountId: string): EvaluationRecord[] => active.all(accountId).map(fromRow),
  };
}
export type EvaluationRepo = ReturnType<typeof createEvaluationRepo>;

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

/** The archives of succeeded runs: the exact bytes served and their digest. */
export function createArchiveRepo(db: Database) {
  const put = db.prepare(
    'INSERT OR REPLACE INTO archives (run_id, bytes, sha256) VALUES (?, ?, ?)',
  );
  const get = db.prepare<[string], { bytes: Buffer; sha256: string }>(
    'SELECT bytes, sha256 FROM archives WHERE run_id = ?',
  );
  const remove = db.prepare('DELETE FROM archives WHERE run_id = ?');
  return {
    put: (runId: string, bytes: Buffer, sha256: string) => void put.run(runId, bytes, sha256),
    get: (runId: string) => get.get(runId),
    remove: (runId: string) => void remove.run(runId),
  };
}
export type ArchiveRepo = ReturnType<typeof createArchiveRepo>;
