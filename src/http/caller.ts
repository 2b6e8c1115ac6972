import type { Deps } from '../runtime/deps.js';
import { bearerSecret } from './authenticate.js';

/**
 * Who a request says it is, without judging it: the key its bearer secret names, revoked or not.
 * For fault rules matched on account or key, and for journal entries of calls that a fault
 * answered before authentication ran.
 */
export function peekCaller(
  deps: Deps,
  authorization: string | undefined,
): { accountId: string; keyId: string } | null {
  const secret = bearerSecret(authorization);
  if (!secret?.startsWith('svc_')) return null;
  const key = deps.store.credentials(deps.store.digestOf(secret))?.key;
  return key ? { accountId: key.accountId, keyId: key.id } : null;
}
