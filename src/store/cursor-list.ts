import type { Database } from 'better-sqlite3';

/** A page of rows, newest first, and whether a further page exists. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * Cursor paging newest first by an autoincrement `seq` (DESIGN.md section 3): `after` is the last
 * id of the previous page, which callers check with `owns` first; `status` filters when given.
 * @example createCursorList(db, 'scenarios', null, fromRow).list(accountId, { limit: 20 })
 */
export function createCursorList<Row, T>(
  db: Database,
  table: string,
  statusColumn: string | null,
  fromRow: (row: Row) => T,
) {
  const seqOf = db.prepare<[string, string], { seq: number }>(
    `SELECT seq FROM ${table} WHERE id = ? AND account_id = ?`,
  );
  const all = db.prepare<[string, number, number], Row>(
    `SELECT * FROM ${table} WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
  );
  const byStatus =
    statusColumn &&
    db.prepare<[string, string, number, number], Row>(
      `SELECT * FROM ${table} WHERE account_id = ? AND ${statusColumn} = ? AND seq < ?
         ORDER BY seq DESC LIMIT ?`,
    );
  return {
    /** One of the account's rows (a listing cursor); another account's id reads as absent. */
    owns: (accountId: string, id: string): boolean => seqOf.get(id, accountId) !== undefined,
    list: (
      accountId: string,
      opts: { status?: string; after?: string; limit: number },
    ): Page<T> => {
      const from = (opts.after && seqOf.get(opts.after, accountId)?.seq) || Number.MAX_SAFE_INTEGER;
      const rows =
        opts.status && byStatus
          ? byStatus.all(accountId, opts.status, from, opts.limit + 1)
          : all.all(accountId, from, opts.limit + 1);
      return { data: rows.slice(0, opts.limit).map(fromRow), hasMore: rows.length > opts.limit };
    },
  };
}
