import type { Account } from '../domain/records.js';
import type { StoredKey } from './keys.js';

/** A key and the account that owns it (absent only if the row is gone). */
export interface Credentials {
  key: StoredKey;
  account: Account | undefined;
}

/**
 * The credentials behind a secret's digest, kept in memory so that authentication does not read
 * two rows on every request (the two SQLite lookups were about a sixth of a `GET /v1/keys/me`).
 *
 * Correctness rests on invalidation, not on a time limit: every write to `accounts` or
 * `api_keys` goes through the store, which calls `forgetAccount()` or `forgetAll()` at once, so
 * a revoked key answers 401 on the very next request. Expiry is not cached: authentication
 * checks `expiresAt` against the account's clock on every request. Only complete credentials
 * are cached (unknown secrets would grow the map without bound), and nothing is cached inside a
 * transaction, which may still roll back. Cached records are frozen: they are shared by every
 * request, so a mutation would leak into later ones.
 * @example const cache = createCredentialCache(load, () => db.inTransaction); cache.find(digest)
 */
export function createCredentialCache(
  load: (digest: Buffer) => Credentials | undefined,
  inTransaction: () => boolean,
) {
  const byDigest = new Map<string, Credentials>();
  return {
    find(digest: Buffer): Credentials | undefined {
      const id = digest.toString('latin1');
      const cached = byDigest.get(id);
      if (cached) return cached;
      const loaded = load(digest);
      if (!loaded?.account || inTransaction()) return loaded;
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
    /** After a write to one account's row (clock, balance, removal): its keys are read again. */
    forgetAccount(accountId: string): void {
      for (const [id, entry] of byDigest) {
        if (entry.account?.id === accountId) byDigest.delete(id);
      }
    },
    /** After a write to `api_keys`, or to every table (reset). */
    forgetAll(): void {
      byDigest.clear();
    },
  };
}
export type CredentialCache = ReturnType<typeof createCredentialCache>;

/** Frozen at run time; typed mutable because the records' types are (nothing writes them). */
function freezeArray<T>(items: T[]): T[] {
  return Object.freeze([...items]) as T[];
}
