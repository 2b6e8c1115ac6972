import type { Database } from 'better-sqlite3';
import { watchRows } from './watch-rows.js';

/**
 * Per account, the earliest `next_at` of its runs (of every kind), kept in memory so that settling an
 * account with nothing due (nearly every request) reads no row: two SQLite probes per request
 * cost several microseconds of a `GET /v1/keys/me`, mostly cache misses.
 *
 * Correctness rests on being told of every change: `store/runs.ts`, the one code that writes
 * `runs` (a test keeps it so), calls `moved` with a run's stored and new `next_at` on each
 * insert and update, and a trigger drops an account's entry when the account goes (its runs go
 * with it). A run due earlier than the cached instant lowers it in place (a create or a resume,
 * on every write request; issue 12 item 2: dropping the entry made the next request read it
 * again); any other move of the run due first drops the entry, to be read again. A cached
 * instant may be early, never late: settling at an early one finds nothing due and reads it
 * again. Nothing is read into the cache inside a transaction, and what a transaction lowered is
 * dropped if it rolls back (`rolledBack`, called by `store.tx`). Telling the cache from the
 * repository instead of from triggers on `runs` saves a call from SQLite into JS on every write
 * (about 5 us of a resume, measured).
 * @example const due = createDueCache(db); if ((due.earliest(id) ?? Infinity) > now) return;
 */
export function createDueCache(db: Database) {
  const byAccount = new Map<string, number | null>();
  const lowered = new Set<string>();
  watchRows(
    db,
    'svc_due_account_gone',
    [{ table: 'accounts', column: 'id', on: ['delete'] as const }],
    (accountId) => byAccount.delete(String(accountId)),
  );
  // `next_at IS NOT NULL` lets SQLite answer from the partial index on (account_id, next_at).
  const earliest = db.prepare<[string], { at: number | null }>(
    'SELECT MIN(next_at) AS at FROM runs WHERE account_id = ? AND next_at IS NOT NULL',
  );
  return {
    /** The earliest instant anything of the account is due; null when nothing is scheduled. */
    earliest(accountId: string): number | null {
      const cached = byAccount.get(accountId);
      if (cached !== undefined) return cached;
      const at = earliest.get(accountId)?.at ?? null;
      if (!db.inTransaction) byAccount.set(accountId, at);
      return at;
    },
    /**
     * A run of the account was written with `next_at` = `to`, where it stood at `from` (null for
     * a new run; undefined when not known, which drops the entry).
     */
    moved(accountId: string, from: number | null | undefined, to: number | null): void {
      const cached = byAccount.get(accountId);
      if (cached === undefined || from === to) return;
      // The run leaving `from` may have been the earliest: read it again.
      if (from === undefined || (from !== null && (cached === null || from <= cached))) {
        byAccount.delete(accountId);
        return;
      }
      if (to !== null && (cached === null || to < cached)) {
        byAccount.set(accountId, to);
        if (db.inTransaction) lowered.add(accountId);
      }
    },
    /** The account's runs changed outside the runs repository: its entry is read again. */
    forget(accountId: string): void {
      byAccount.delete(accountId);
    },
    /** A transaction (or savepoint) rolled back: what it lowered is read again. */
    rolledBack(): void {
      for (const account of lowered) byAccount.delete(account);
      lowered.clear();
    },
    /** The outermost transaction committed: what it lowered stands. */
    committed(): void {
      lowered.clear();
    },
  };
}
export type DueCache = ReturnType<typeof createDueCache>;
