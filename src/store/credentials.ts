import type { Account } from '../domain/records.js';
import type { AccountRepo } from './accounts.js';
import type { KeyRepo, StoredKey } from './keys.js';

/** A key and the account that owns it (absent only if the row is gone). */
export interface Credentials {
  key: StoredKey;
  account: Account | undefined;
}

/**
 * The credentials behind a secret's digest, read afresh each call: a revocation shows at once.
 * @example const find = credentialsReader(keys, accounts); find(digestSecret(secret))
 */
export function credentialsReader(keys: KeyRepo, accounts: AccountRepo) {
  return (digest: Buffer): Credentials | undefined => {
    const key = keys.findByDigest(digest);
    return key && { key, account: accounts.get(key.accountId) };
  };
}
