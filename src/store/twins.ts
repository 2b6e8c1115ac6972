import type { Database } from 'better-sqlite3';
import type { TwinRecord } from '../domain/records.js';

interface TwinRow {
  id: string;
  account_id: string;
  status: string;
  created_at: string;
  run: string | null;
  next_at: number | null;
}

const fromRow = (row: TwinRow): TwinRecord => ({
  id: row.id,
  accountId: row.account_id,
  status: row.status as TwinRecord['status'],
  createdAt: row.created_at,
  run: row.run ? JSON.parse(row.run) : null,
  nextAt: row.next_at,
});

export function createTwinRepo(db: Database) {
  const insert = db.prepare(
    'INSERT INTO twins (id, account_id, status, created_at, run, next_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const save = db.prepare('UPDATE twins SET status = ?, run = ?, next_at = ? WHERE id = ?');
  const due = db.prepare<[string, number], TwinRow>(
    'SELECT * FROM twins WHERE account_id = ? AND next_at <= ? ORDER BY seq',
  );
  const byId = db.prepare<[string, string], TwinRow>(
    'SELECT * FROM twins WHERE id = ? AND account_id = ?',
  );
  const exists = db.prepare<[string], { 1: number }>('SELECT 1 FROM twins WHERE id = ?');
  const seqOf = db.prepare<[string, string], { seq: number }>(
    'SELECT seq FROM twins WHERE id = ? AND account_id = ?',
  );
  const listAll = db.prepare<[string, number, number], TwinRow>(
    'SELECT * FROM twins WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
  );
  const listByStatus = db.prepare<[string, string, number, number], TwinRow>(
    'SELECT * FROM twins WHERE account_id = ? AND status = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
  );
  return {
    exists: (id: string): boolean => exists.get(id) !== undefined,
    insert: (t: TwinRecord) =>
      void insert.run(
        t.id,
        t.accountId,
        t.status,
        t.createdAt,
        t.run && JSON.stringify(t.run),
        t.nextAt,
      ),
    save: (t: TwinRecord) =>
      void save.run(t.status, t.run && JSON.stringify(t.run), t.nextAt, t.id),
    due: (accountId: string, now: number): TwinRecord[] => due.all(accountId, now).map(fromRow),
    get: (accountId: string, id: string): TwinRecord | undefined => {
      const row = byId.get(id, accountId);
      return row && fromRow(row);
    },
    /** One of the account's twins (a listing cursor). */
    existsIn: (accountId: string, id: string): boolean => seqOf.get(id, accountId) !== undefined,
    /** Newest first; `after` is the id of the last twin of the previous page (callers check it). */
    list: (accountId: string, opts: { status?: string; after?: string; limit: number }) => {
      const from = (opts.after && seqOf.get(opts.after, accountId)?.seq) || Number.MAX_SAFE_INTEGER;
      const rows = opts.status
        ? listByStatus.all(accountId, opts.status, from, opts.limit + 1)
        : listAll.all(accountId, from, opts.limit + 1);
      return { data: rows.slice(0, opts.limit).map(fromRow), hasMore: rows.length > opts.limit };
    },
  };
}
export type TwinRepo = ReturnType<typeof createTwinRepo>;
