import type { Database } from 'better-sqlite3';
import type { EvaluationRecord } from '../domain/records.js';

interface EvaluationRow {
  id: string;
  account_id: string;
  request: string;
  state: string;
  created_at: string;
}

function fromRow(row: EvaluationRow): EvaluationRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    createdAt: row.created_at,
    request: JSON.parse(row.request),
    state: JSON.parse(row.state),
  };
}

export function createEvaluationRepo(db: Database) {
  const insert = db.prepare(
    'INSERT INTO evaluations (id, account_id, request, state, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const byId = db.prepare<[string, string], EvaluationRow>(
    'SELECT * FROM evaluations WHERE id = ? AND account_id = ?',
  );
  const exists = db.prepare<[string], { 1: number }>('SELECT 1 FROM evaluations WHERE id = ?');
  const setState = db.prepare('UPDATE evaluations SET state = ? WHERE id = ?');
  return {
    insert: (e: EvaluationRecord) =>
      void insert.run(
        e.id,
        e.accountId,
        JSON.stringify(e.request),
        JSON.stringify(e.state),
        e.createdAt,
      ),
    /** Scoped to the account: another account's id reads as absent (API document, 4.1). */
    get: (accountId: string, id: string): EvaluationRecord | undefined => {
      const row = byId.get(id, accountId);
      return row && fromRow(row);
    },
    /** Any account's: ids are unique across the emulator. */
    exists: (id: string): boolean => exists.get(id) !== undefined,
    saveState: (e: EvaluationRecord) => void setState.run(JSON.stringify(e.state), e.id),
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
      lines.forEach((line, i) => insert.run(runId, i, line));
    },
    append: (runId: string, lines: string[]) => {
      let seq = count.get(runId)?.n ?? 0;
      for (const line of lines) insert.run(runId, seq++, line);
    },
    tail: (runId: string, limit: number): string[] => tail.all(runId, limit).map((r) => r.line),
  };
}
export type RunLogRepo = ReturnType<typeof createRunLogRepo>;
