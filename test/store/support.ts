import { openStore } from '../../src/areas/store.js';

/**
 * An in-memory store holding bare accounts with these ids (no keys, no runs), for tests of the
 * store's repositories; `addAccount` adds another (or the same again after a delete) straight
 * into the table.
 */
export function storeWithAccounts(ids: readonly string[]) {
  const store = openStore(':memory:');
  const insert = store.db.prepare(
    `INSERT OR IGNORE INTO accounts (id, name, features, token_balance, limits, download_mode,
       clock_mode, clock_now, created_at) VALUES (?, 'a', '[]', 0, '{}', 'auth', 'manual', 0, 't')`,
  );
  const addAccount = (id: string) => void insert.run(id);
  for (const id of ids) addAccount(id);
  return { store, addAccount };
}
