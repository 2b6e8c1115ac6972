import type { Database } from 'better-sqlite3';
import { watchRows } from './watch-rows.js';

/** The tables whose `next_at` settling reads, by `account_id`. */
const SCHEDULED = ['runs'] as const;

/**
 * Per account, the earliest `next_at` of its runs (of every kind), kept in memory so that settling an
 * account with nothing due (nearly every request) reads no row: two SQLite probes per request
 * cost several microseconds of a `GET /v1/keys/me`, mostly cache misses.
 *
 * As in the credential cache, correctness rests on invalidation: temporary triggers on the
 * table (and on account removal) drop an account's entry on every insert, update and delete,
 * whichever code makes it, before the statement returns. Nothing is cached inside a
 * transaction, which may still roll back.
 * @example const due = createDueCache(db); if ((due.earliest(id) ?? Infinity) > now) return;
 */
export function createDueCache(db: Database) {
  const byAccount = new Map<string, number | null>();
  watchRows(
    db,
    'svc_due_changed',
    [
      // A run's state changes on every transition; only its `next_at` moves what settling reads.
      ...SCHEDULED.map((table) => ({
        table,
        column: 'account_id',
        updateOf: ['next_at', 'account_id'],
      })),
      { table: 'accounts', column: 'id', on: ['delete'] as const },
    ],
    (accountId) => byAccount.delete(String(accountId)),
  );
  // `next_at IS NOT NULL` lets SQLite answer from the partial index on (account_id, next_at).
  const statements = SCHEDULED.map(
    (table) =>
      `SELECT MIN(next_at) AS at FROM ${table} WHERE account_id = ? AND next_at IS NOT NULL`,
  );
  const earliest = db.prepare<string[], { at: number | null }>(
    `SELECT MIN(at) AS at FROM (${statements.join(' UNION ALL ')})`,
  );
  return {
    /** The earliest instant anything of the account is due; null when nothing is scheduled. */
    earliest(accountId: string): number | null {
      const cached = byAccount.get(accountId);
      if (cached !== undefined) return cached;
      const at = earliest.get(...SCHEDULED.map(() => accountId))?.at ?? null;
      if (!db.inTransaction) byAccount.set(accountId, at);
      return at;
    },
  };
}
