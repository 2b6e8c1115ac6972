import type { Database } from 'better-sqlite3';
import type { TwinRecord } from '../domain/records.js';
import { createCursorList } from './cursor-list.js';

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
  const cursor = createCursorList(db, 'twins', 'status', fromRow);
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
    owns: cursor.owns,
    /** Newest first, by `status` if given, after the twin `after` (callers check it with `owns`). */
    list: cursor.list,
  };
}
export type TwinRepo = ReturnType<typeof createTwinRepo>;
