import type { Deps } from '../runtime/deps.js';
import { bearerSecret } from './authenticate.js';

/** Who a request says it is, revoked or not: for fault rules and the journal of a faulted call. */
export function peekCaller(
  deps: Deps,
  authorization: string | undefined,
): { accountId: string; keyId: string } | null {
  const secret = bearerSecret(authorization);
  if (!secret?.startsWith('svc_')) return null;
  const key = deps.store.credentials(secret)?.key;
  return key ? { accountId: key.accountId, keyId: key.id } : null;
}
