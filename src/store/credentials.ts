import type { Database } from 'better-sqlite3';
import type { Account } from '../domain/records.js';
import type { StoredKey } from './keys.js';
import { watchRows } from './watch-rows.js';

/** A key and the account that owns it (absent only if the row is gone). */
export interface Credentials {
  key: StoredKey;
  account: Account | undefined;
}

/** Rows whose writes make the cached credentials of an account stale, and the account column. */
const WATCHED = [
  { table: 'accounts', account: 'id' },
  { table: 'api_keys', account: 'account_id' },
] as const;

/**
 * The credentials behind a secret's digest, kept in memory so that authentication does not read
 * two rows on every request (the two SQLite lookups were about a sixth of a `GET /v1/keys/me`).
 *
 * Correctness rests on invalidation, not on a time limit. Temporary triggers on `accounts` and
 * `api_keys` tell the cache about every insert, update and delete of either, whichever code
 * makes it (cascades and repository methods added later included), before the statement
 * returns: a revoked key answers 401 on the very next request. Expiry is not cached:
 * authentication checks `expiresAt` against the account's clock on every request. Only complete
 * credentials are cached (unknown secrets would grow the map without bound), and nothing is
 * cached inside a transaction, which may still roll back. Cached records are frozen: every
 * request shares them, so a mutation would leak into later ones.
 * @example const cache = createCredentialCache(db, load); cache.find(digestSecret(secret))
 */
export function createCredentialCache(
  db: Database,
  load: (digest: Buffer) => Credentials | undefined,
) {
  const byDigest = new Map<string, Credentials>();
  const forgetAccount = (accountId: unknown) => {
    for (const [id, entry] of byDigest) {
      if (entry.account?.id === accountId || entry.key.accountId === accountId) {
        byDigest.delete(id);
      }
    }
  };
  watchRows(
    db,
    'svc_credentials_changed',
    WATCHED.map(({ table, account }) => ({ table, column: account })),
    forgetAccount,
  );
  return {
    find(digest: Buffer): Credentials | undefined {
      const id = digest.toString('latin1');
      const cached = byDigest.get(id);
      if (cached) return cached;
      const loaded = load(digest);
      if (!loaded?.account || db.inTransaction) return loaded;
      const frozen: Credentials = {
        key: Object.freeze({ ...loaded.key, scopes: freezeArray(loaded.key.scopes) }),
        account: Object.freeze({
          ...loaded.account,
          features: freezeArray(loaded.account.features),
          limits: Object.freeze({ ...loaded.account.limits }),
        }),
      };
      byDigest.set(id, frozen);
      return frozen;
    },
  };
}
export type CredentialCache = ReturnType<typeof createCredentialCache>;

/** Frozen at run time; typed mutable because the records' types are (nothing writes them). */
function freezeArray<T>(items: T[]): T[] {
  return Object.freeze([...items]) as T[];
}
