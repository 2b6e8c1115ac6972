import type { Database } from 'better-sqlite3';
import type { UserAssetRecord } from '../domain/records.js';

interface AssetRow {
  id: string;
  account_id: string;
  kind: string;
  name: string;
  status: string;
  created_at: string;
}

/** Users' own environments (`env_`) and objects (`obj_`), which scenarios may name. */
export function createUserAssetRepo(db: Database) {
  const insert = db.prepare(
    `INSERT INTO user_assets (id, account_id, kind, name, status, created_at)
     VALUES (@id, @accountId, @kind, @name, @status, @createdAt)`,
  );
  const byId = db.prepare<[string, string], AssetRow>(
    'SELECT * FROM user_assets WHERE id = ? AND account_id = ?',
  );
  const exists = db.prepare<[string], { 1: number }>('SELECT 1 FROM user_assets WHERE id = ?');
  return {
    exists: (id: string): boolean => exists.get(id) !== undefined,
    insert: (asset: UserAssetRecord) => void insert.run(asset),
    get: (accountId: string, id: string): UserAssetRecord | undefined => {
      const row = byId.get(id, accountId);
      return (
        row && {
          id: row.id,
          accountId: row.account_id,
          kind: row.kind as UserAssetRecord['kind'],
          name: row.name,
          status: row.status,
          createdAt: row.created_at,
        }
      );
    },
  };
}
export type UserAssetRepo = ReturnType<typeof createUserAssetRepo>;
