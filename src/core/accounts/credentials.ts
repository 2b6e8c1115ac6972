/**
 * The two lookups every product request makes, remembered (docs/development.md, "Why it is
 * fast") while the database is unchanged: any write, by this connection or another on the same
 * file, forgets all. Nothing read inside a transaction, which may still roll back, is kept.
 */

import type { Account } from '../records.js';
import { digestSecret } from '../sha256.js';
import type { Database } from '../sqlite/sqlite.js';
import type { AccountRepo } from './accounts-store.js';
import type { KeyRepo, StoredKey } from './keys-store.js';

/** A key and the account that owns it (absent only if the row is gone). */
export interface Credentials {
  key: StoredKey;
  account: Account | undefined;
}

/** Secrets remembered at most; the map empties when full, so it stays bounded. */
const SECRETS_MAX = 1024;

/**
 * `runs`: where the earliest due instant of an account's runs is read (the engine's run store).
 * @example const lookups = rememberedLookups(db, keys, accounts, runs); lookups.credentials(secret)
 */
export function rememberedLookups(
  db: Database,
  keys: KeyRepo,
  accounts: AccountRepo,
  runs: { earliestDue(accountId: string): number | null },
) {
  const bySecret = new Map<string, Credentials>();
  const dueOf = new Map<string, number | null>();
  const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  // Only another connection to the same file changes `data_version`: an in-memory database has none.
  const version = db.memory ? null : db.prepare<[], number>('PRAGMA data_version').pluck();
  let seenChanges = -1;
  let seenVersion = -1;
  /** Forgets all when the database changed since the last lookup. */
  const fresh = () => {
    const changed = changes.get() ?? 0;
    const versioned = version?.get() ?? 0;
    if (changed === seenChanges && versioned === seenVersion) return;
    seenChanges = changed;
    seenVersion = versioned;
    bySecret.clear();
    dueOf.clear();
  };
  return {
    /** The key with this bearer secret (looked up by its SHA-256, as keys are stored). */
    credentials(secret: string): Credentials | undefined {
      fresh();
      const remembered = bySecret.get(secret);
      if (remembered) return remembered;
      const key = keys.findByDigest(digestSecret(secret));
      const found = key && { key, account: accounts.get(key.accountId) };
      if (found?.account && !db.inTransaction) {
        if (bySecret.size >= SECRETS_MAX) bySecret.clear();
        bySecret.set(secret, found);
      }
      return found;
    },
    /** The earliest `next_at` of the account's runs, null if none. */
    earliestDue(accountId: string): number | null {
      fresh();
      const remembered = dueOf.get(accountId);
      if (remembered !== undefined) return remembered;
      const at = runs.earliestDue(accountId);
      if (!db.inTransaction) dueOf.set(accountId, at);
      return at;
    },
  };
}
