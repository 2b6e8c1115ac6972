import type { Page } from '../../core/sqlite/cursor-list.js';
import type { Database } from '../../core/sqlite/sqlite.js';
import type { UserAssetKind, UserAssetRecord } from './records.js';

interface AssetRow {
  id: string;
  account_id: string;
  kind: string;
  name: string;
  status: string;
  created_at: string;
  description: string | null;
  metadata: string;
  ready_at: string | null;
  outcome: string | null;
}

const fromRow = (row: AssetRow): UserAssetRecord => ({
  id: row.id,
  accountId: row.account_id,
  kind: row.kind as UserAssetKind,
  name: row.name,
  status: row.status,
  createdAt: row.created_at,
  description: row.description,
  metadata: JSON.parse(row.metadata),
  readyAt: row.ready_at,
  outcome: row.outcome,
});

/** Users' own environments (`env_`) and objects (`obj_`), which scenarios may name. */
export function createUserAssetRepo(db: Database) {
  const insert = db.prepare(
    `INSERT INTO user_assets (id, account_id, kind, name, status, created_at, description,
       metadata, ready_at, outcome)
     VALUES (@id, @accountId, @kind, @name, @status, @createdAt, @description, @metadata,
       @readyAt, @outcome)`,
  );
  const byId = db.prepare<[string, string], AssetRow>(
    'SELECT * FROM user_assets WHERE id = ? AND account_id = ?',
  );
  const exists = db.prepare<[string], { 1: number }>('SELECT 1 FROM user_assets WHERE id = ?');
  const seqOf = db.prepare<[string, string, string], { seq: number }>(
    'SELECT seq FROM user_assets WHERE id = ? AND account_id = ? AND kind = ?',
  );
  // The status filter reads the status at `now`: validation ends at `ready_at` on the clock.
  const page = db.prepare<[Record<string, unknown>], AssetRow>(
    `SELECT * FROM user_assets WHERE account_id = @accountId AND kind = @kind AND seq < @from
       AND (@filter IS NULL OR (CASE WHEN status = 'validating' AND ready_at <= @now THEN outcome
         ELSE status END) IN (SELECT value FROM json_each(@filter)))
     ORDER BY seq DESC LIMIT @limit`,
  );
  const remove = db.prepare('DELETE FROM user_assets WHERE id = ? AND account_id = ?');
  return {
    exists: (id: string): boolean => exists.get(id) !== undefined,
    insert: (asset: UserAssetRecord) =>
      void insert.run({
        description: null,
        readyAt: null,
        outcome: null,
        ...asset,
        metadata: JSON.stringify(asset.metadata ?? {}),
      }),
    get: (accountId: string, id: string): UserAssetRecord | undefined => {
      const row = byId.get(id, accountId);
      return row && fromRow(row);
    },
    owns: (accountId: string, kind: UserAssetKind, id: string): boolean =>
      seqOf.get(id, accountId, kind) !== undefined,
    /** Newest first; `statuses` are the stored statuses a filter matches at `now`. */
    list: (
      accountId: string,
      kind: UserAssetKind,
      opts: { statuses?: string[]; now: string; after?: string; limit: number },
    ): Page<UserAssetRecord> => {
      const from =
        (opts.after && seqOf.get(opts.after, accountId, kind)?.seq) || Number.MAX_SAFE_INTEGER;
      const filter = opts.statuses ? JSON.stringify(opts.statuses) : null;
      const rows = page.all({
        accountId,
        kind,
        from,
        filter,
        now: opts.now,
        limit: opts.limit + 1,
      });
      return { data: rows.slice(0, opts.limit).map(fromRow), hasMore: rows.length > opts.limit };
    },
    remove: (accountId: string, id: string): boolean => remove.run(id, accountId).changes > 0,
  };
}
export type UserAssetRepo = ReturnType<typeof createUserAssetRepo>;

declare module '../../core/sqlite/store.js' {
  interface Repositories {
    userAssets: UserAssetRepo;
  }
}
