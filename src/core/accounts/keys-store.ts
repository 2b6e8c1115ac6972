import type { ApiKeyRecord } from '../records.js';
import type { Database } from '../sqlite/sqlite.js';

interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  scopes: string;
  secret_sha256: Buffer;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface StoredKey extends ApiKeyRecord {
  secretSha256: Buffer;
}

function fromRow(row: KeyRow): StoredKey {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    scopes: JSON.parse(row.scopes),
    secretSha256: row.secret_sha256,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

/** Keys are stored by the SHA-256 digest of their secret; the secret itself is never kept. */
export function createKeyRepo(db: Database) {
  const insert = db.prepare(
    `INSERT INTO api_keys (id, account_id, name, scopes, secret_sha256, created_at, expires_at, revoked_at)
     VALUES (@id, @accountId, @name, @scopes, @secretSha256, @createdAt, @expiresAt, @revokedAt)`,
  );
  const byDigest = db.prepare<[Buffer], KeyRow>('SELECT * FROM api_keys WHERE secret_sha256 = ?');
  const byId = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const revoke = db.prepare(
    'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const ofAccount = db.prepare<[string], KeyRow>(
    'SELECT * FROM api_keys WHERE account_id = ? ORDER BY rowid',
  );
  return {
    insert: (key: StoredKey) => void insert.run({ ...key, scopes: JSON.stringify(key.scopes) }),
    findByDigest: (digest: Buffer): StoredKey | undefined => {
      const row = byDigest.get(digest);
      return row && fromRow(row);
    },
    get: (id: string): StoredKey | undefined => {
      const row = byId.get(id);
      return row && fromRow(row);
    },
    revoke: (id: string, at: string) => void revoke.run(at, id),
    /** The account's keys, oldest first. */
    ofAccount: (accountId: string): StoredKey[] => ofAccount.all(accountId).map(fromRow),
  };
}
export type KeyRepo = ReturnType<typeof createKeyRepo>;
