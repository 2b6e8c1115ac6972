import type { Database } from 'better-sqlite3';
import type { TwinRecord } from '../domain/records.js';

interface TwinRow {
  id: string;
  account_id: string;
  status: string;
  created_at: string;
}

const fromRow = (row: TwinRow): TwinRecord => ({
  id: row.id,
  accountId: row.account_id,
  status: row.status as TwinRecord['status'],
  createdAt: row.created_at,
});

export function createTwinRepo(db: Database) {
  const insert = db.prepare(
    'INSERT INTO twins (id, account_id, status, created_at) VALUES (@id, @accountId, @status, @createdAt)',
  );
  const byId = db.prepare<[string, string], TwinRow>(
    'SELECT * FROM twins WHERE id = ? AND account_id = ?',
  );
  const exists = db.prepare<[string], { 1: number }>('SELECT 1 FROM twins WHERE id = ?');
  return {
    exists: (id: string): boolean => exists.get(id) !== undefined,
    insert: (twin: TwinRecord) => void insert.run(twin),
    get: (accountId: string, id: string): TwinRecord | undefined => {
      const row = byId.get(id, accountId);
      return row && fromRow(row);
    },
  };
}
export type TwinRepo = ReturnType<typeof createTwinRepo>;
