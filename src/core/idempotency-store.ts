import type { Database } from './sqlite/sqlite.js';

/** A first response kept for `Idempotency-Key` replays (DESIGN.md section 3). */
export interface IdempotencyRecord {
  accountId: string;
  key: string;
  requestHash: string;
  status: number;
  headers: Record<string, string>;
  /** The answer's bytes, stored as text: every answer a key replays is a create's JSON. */
  body: Buffer;
  createdAtMs: number;
}

interface Row {
  account_id: string;
  key: string;
  request_hash: string;
  status: number;
  headers: string;
  /** The answer's JSON text. */
  body: string;
  created_at_ms: number;
}

export function createIdempotencyRepo(db: Database) {
  const get = db.prepare<[string, string], Row>(
    'SELECT * FROM idempotency_records WHERE account_id = ? AND key = ?',
  );
  const put = db.prepare(
    `INSERT OR REPLACE INTO idempotency_records
       (account_id, key, request_hash, status, headers, body, created_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const prune = db.prepare(
    'DELETE FROM idempotency_records WHERE account_id = ? AND created_at_ms <= ?',
  );
  return {
    get(accountId: string, key: string): IdempotencyRecord | undefined {
      const row = get.get(accountId, key);
      return (
        row && {
          accountId: row.account_id,
          key: row.key,
          requestHash: row.request_hash,
          status: row.status,
          headers: JSON.parse(row.headers),
          body: Buffer.from(row.body, 'utf8'),
          createdAtMs: row.created_at_ms,
        }
      );
    },
    put(r: IdempotencyRecord): void {
      put.run(
        r.accountId,
        r.key,
        r.requestHash,
        r.status,
        JSON.stringify(r.headers),
        r.body.toString('utf8'),
        r.createdAtMs,
      );
    },
    /** Forgets the account's records created at or before `beforeMs`. */
    prune: (accountId: string, beforeMs: number) => void prune.run(accountId, beforeMs),
  };
}
