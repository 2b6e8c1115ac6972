import type { Database } from 'better-sqlite3';
import { boundedMemo } from '../domain/bounded-memo.js';
import type { Account } from '../domain/records.js';
import { digestSecret } from '../domain/sha256.js';
import type { StoredKey } from './keys.js';
import { watchRows } from './watch-rows.js';

/** A key and the account that owns it (absent only if the row is gone). */
export interface Credentials {
  key: StoredKey;
  account: Account | undefined;
}

/**
 * The columns of `table` but `except`, read from the schema so a column added later is watched
 * too: an account's token balance changes on every create and resume, and the cached record
 * reads it live instead (see `tokenBalance` below).
 */
function columnsBut(db: Database, table: string, except: string): string[] {
  const info = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`);
  return info
    .all()
    .map((c) => c.name)
    .filter((name) => name !== except);
}

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
 * An account's token balance is the exception: it changes on every create and resume, so it
 * does not drop the entry, and the cached record's `tokenBalance` reads it from the row.
 * @example const cache = createCredentialCache(db, load, accounts.balance); cache.find(digest)
 */
export function createCredentialCache(
  db: Database,
  load: (digest: Buffer) => Credentials | undefined,
  balance: (accountId: string) => number,
) {
  const byDigest = new Map<string, Credentials>();
  const unknown = new Set<string>();
  const digestOf = boundedMemo(DIGESTS_MAX, digestSecret);
  // A digest's key in the maps (its bytes as a latin1 string), made once per remembered digest.
  const idOfDigest = new WeakMap<Buffer, string>();
  const idOf = (digest: Buffer) => {
    let id = idOfDigest.get(digest);
    if (id === undefined) {
      id = digest.toString('latin1');
      idOfDigest.set(digest, id);
    }
    return id;
  };
  const forgetAccount = (accountId: unknown) => {
    unknown.clear();
    for (const [id, entry] of byDigest) {
      if (entry.account?.id === accountId || entry.key.accountId === accountId) {
        byDigest.delete(id);
      }
    }
  };
  watchRows(
    db,
    'svc_credentials_changed',
    [
      { table: 'accounts', column: 'id', updateOf: columnsBut(db, 'accounts', 'token_balance') },
      { table: 'api_keys', column: 'account_id' },
    ],
    forgetAccount,
  );
  return {
    /**
     * The SHA-256 digest of a bearer secret, remembered for the {@link DIGESTS_MAX} secrets
     * seen last (emptied when full): a test suite sends the same few keys on every call, and
     * hashing is a native call that costs several microseconds under load.
     */
    digestOf,
    find(digest: Buffer): Credentials | undefined {
      const id = idOf(digest);
      const cached = byDigest.get(id);
      if (cached) return cached;
      if (unknown.has(id)) return undefined;
      const loaded = load(digest);
      if (db.inTransaction) return loaded;
      if (!loaded) {
        if (unknown.size >= UNKNOWN_MAX) unknown.clear();
        unknown.add(id);
        return undefined;
      }
      if (!loaded.account) return loaded;
      const account = {
        ...loaded.account,
        features: freezeArray(loaded.account.features),
        limits: Object.freeze({ ...loaded.account.limits }),
      };
      // A balance change does not drop the entry, so the cached record reads it live.
      Object.defineProperty(account, 'tokenBalance', {
        get: () => balance(account.id),
        enumerable: true,
      });
      const frozen: Credentials = {
        key: Object.freeze({ ...loaded.key, scopes: freezeArray(loaded.key.scopes) }),
        account: Object.freeze(account),
      };
      byDigest.set(id, frozen);
      return frozen;
    },
  };
}
export type CredentialCache = ReturnType<typeof createCredentialCache>;

/** How many digests that open no key are remembered (emptied when full). */
export const UNKNOWN_MAX = 1024;
/** How many secrets' digests are remembered (emptied when full). */
export const DIGESTS_MAX = 1024;

/** Frozen at run time; typed mutable because the records' types are (nothing writes them). */
function freezeArray<T>(items: T[]): T[] {
  return Object.freeze([...items]) as T[];
}
