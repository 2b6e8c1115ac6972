/**
 * The two lookups every product request makes, remembered (docs/development.md, "Why it is
 * fast"). A key (or that no key has a secret: a 401's lookup) is remembered until any key is
 * written and an account until its row is: triggers of this connection tell of each such row,
 * whichever statement wrote it (a repository, a restore, a test's own SQL), so one account's
 * runs, events and charges leave every other account's credentials remembered. A write of the
 * balance alone (every create and resume charges one) keeps the account and reads its balance
 * again, not the whole row. An account's next due instant is remembered while the database is
 * unchanged (`total_changes()`): a trigger on the runs would turn a snapshot's restore of them from
 * a copy of pages into a write a row. Another connection to the same file changes `data_version`,
 * which forgets all. Nothing read inside a transaction, which may still roll back, is kept.
 */

import type { Account } from '../records.js';
import { digestSecret } from '../sha256.js';
import type { Database } from '../sqlite/sqlite.js';
import { writtenElsewhere } from '../sqlite/written-elsewhere.js';
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
  /** null: no key has the secret (a 401's lookup, remembered as a key is). */
  const keyBySecret = new Map<string, StoredKey | null>();
  const accountById = new Map<string, Account>();
  /** Remembered accounts whose balance was written since. */
  const staleBalance = new Set<string>();
  const dueOf = new Map<string, number | null>();
  watchWrites(
    db,
    () => keyBySecret.clear(),
    (id, balanceOnly) => {
      if (balanceOnly && accountById.has(id)) staleBalance.add(id);
      else accountById.delete(id);
    },
  );
  const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  const elsewhere = writtenElsewhere(db);
  let seenChanges = -1;
  /** Forgets all when another connection changed the database file since the last lookup. */
  const fresh = () => {
    if (!elsewhere()) return;
    keyBySecret.clear();
    accountById.clear();
    dueOf.clear();
  };
  const accountOf = (id: string): Account | undefined => {
    const remembered = accountById.get(id);
    if (remembered && !staleBalance.has(id)) return remembered;
    const account = remembered
      ? { ...remembered, tokenBalance: accounts.balance(id) }
      : accounts.get(id);
    if (account && !db.inTransaction) {
      accountById.set(id, account);
      staleBalance.delete(id);
    }
    return account;
  };
  return {
    /** The key with this bearer secret (looked up by its SHA-256, as keys are stored). */
    credentials(secret: string): Credentials | undefined {
      fresh();
      let key = keyBySecret.get(secret);
      if (key === undefined) {
        key = keys.findByDigest(digestSecret(secret)) ?? null;
        if (!db.inTransaction) {
          if (keyBySecret.size >= SECRETS_MAX) keyBySecret.clear();
          keyBySecret.set(secret, key);
        }
      }
      return key === null ? undefined : { key, account: accountOf(key.accountId) };
    },
    /** The earliest `next_at` of the account's runs, null if none. */
    earliestDue(accountId: string): number | null {
      fresh();
      const changed = changes.get() ?? 0;
      if (changed !== seenChanges) {
        seenChanges = changed;
        dueOf.clear();
      }
      const remembered = dueOf.get(accountId);
      if (remembered !== undefined) return remembered;
      const at = runs.earliestDue(accountId);
      if (!db.inTransaction) dueOf.set(accountId, at);
      return at;
    },
  };
}

/**
 * Temporary triggers (this connection's alone: never in the database file nor in a snapshot) that
 * call `keys` for every row inserted, deleted or updated in `api_keys`, and `account` with the id
 * of every such row of `accounts`, and whether its balance is all that changed (every other
 * column, as the schema has them, the same). A rolled-back write has told already: its lookups
 * are read again, which is never wrong. Both tables are small; a restore copies them a row at a time.
 */
function watchWrites(
  db: Database,
  keys: () => void,
  account: (id: string, balanceOnly: boolean) => void,
): void {
  const fn = 'svc_lookups_forget';
  // Two arguments for a key's row, three for an account's update: `varargs`.
  db.function(fn, { deterministic: false, varargs: true }, (...args: unknown[]) => {
    const [table, id, balanceOnly] = args as [string, string, number | undefined];
    if (table === 'accounts') account(id, balanceOnly === 1);
    else keys();
    return null;
  });
  const columns = db
    .prepare<[], { name: string }>('PRAGMA main.table_info(accounts)')
    .all()
    .map((c) => c.name)
    .filter((name) => name !== 'token_balance');
  const sameBut = columns.map((c) => `OLD.${c} IS NEW.${c}`).join(' AND ');
  for (const [table, id] of [
    ['api_keys', 'account_id'],
    ['accounts', 'id'],
  ] as const) {
    for (const [event, rows] of [
      ['INSERT', ['NEW']],
      ['DELETE', ['OLD']],
      ['UPDATE', ['OLD', 'NEW']],
    ] as const) {
      const balance = table === 'accounts' && event === 'UPDATE' ? `, ${sameBut}` : '';
      const calls = rows.map((row) => `${fn}('${table}', ${row}.${id}${balance})`).join(', ');
      const name = `${fn}_${table}_${event.toLowerCase()}`;
      db.exec(
        `CREATE TEMP TRIGGER ${name} AFTER ${event} ON main.${table} BEGIN SELECT ${calls}; END`,
      );
    }
  }
}
