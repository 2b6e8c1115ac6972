import type { Deps } from '../runtime/deps.js';
import type { Credentials } from '../store/credentials.js';
import { bearerSecret } from './authenticate.js';

/**
 * Who a request says it is, without judging it: the key its bearer secret names, revoked or not.
 * For fault rules matched on account or key, and for journal entries of calls that a fault
 * answered before authentication ran. Reads the credential cache authentication uses.
 */
export function peekCaller(
  deps: Deps,
  authorization: string | undefined,
): { accountId: string; keyId: string; digest: Buffer; found: Credentials } | null {
  const secret = bearerSecret(authorization);
  if (!secret?.startsWith('svc_')) return null;
  const digest = deps.store.digestOf(secret);
  const found = deps.store.credentials(digest);
  const key = found?.key;
  // Authentication takes the same lookup instead of making it again (http/authenticate.ts).
  return key ? { accountId: key.accountId, keyId: key.id, digest, found } : null;
}
