import type { Database } from './sqlite.js';

/** A page of rows, newest first, and whether a further page exists. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * Cursor paging newest first by an autoincrement `seq` (DESIGN.md section 3): `after` is the last
 * id of the previous page, which callers check with `owns` first; both see only rows `where` holds.
 * @example createCursorList(db, 'scenarios', fromRow).list(accountId, { limit: 20 })
 */
export function createCursorList<Row, T>(
  db: Database,
  table: string,
  fromRow: (row: Row) => T,
  where = 'TRUE',
) {
  const seqOf = db.prepare<[string, string], { seq: number }>(
    `SELECT seq FROM ${table} WHERE id = ? AND account_id = ? AND ${where}`,
  );
  const page = db.prepare<[string, number, number], Row>(
    `SELECT * FROM ${table} WHERE account_id = ? AND ${where} AND seq < ?
       ORDER BY seq DESC LIMIT ?`,
  );
  return {
    /** One of the account's rows (a listing cursor); another account's id reads as absent. */
    owns: (accountId: string, id: string): boolean => seqOf.get(id, accountId) !== undefined,
    list: (accountId: string, opts: { after?: string; limit: number }): Page<T> => {
      const from = (opts.after && seqOf.get(opts.after, accountId)?.seq) || Number.MAX_SAFE_INTEGER;
      const rows = page.all(accountId, from, opts.limit + 1);
      return { data: rows.slice(0, opts.limit).map(fromRow), hasMore: rows.length > opts.limit };
    },
  };
}
