import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { type ApiError, apiError, MESSAGES } from '../errors.js';

const BEARER = /^Bearer +(\S+)$/i;

const fail = (message: string) => apiError('unauthenticated', { message });

/** The secret of an `Authorization: Bearer <secret>` header, if it has that form. */
export function bearerSecret(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/**
 * API document section 5: `Authorization: Bearer svc_...`; any bad key is 401 `unauthenticated`,
 * its message saying why. Sets `auth` for the rest of the request.
 */
export function authenticate(c: Context<AppEnv>): void {
  const refused = authenticated(c);
  if (refused) throw refused;
}

/**
 * {@link authenticate}'s 401 returned, not thrown (the pipeline answers it at once:
 * core/envelope.ts); sets `auth` when the key is good.
 */
export function authenticated(c: Context<AppEnv>): ApiError | undefined {
  const { store, clocks } = c.get('deps');
  const header = c.req.header('authorization');
  if (!header) return fail(MESSAGES.noKey);
  const secret = bearerSecret(header);
  if (!secret) return fail(MESSAGES.malformedAuthorization);
  if (!secret.startsWith('svc_')) return fail(MESSAGES.keyPrefix);
  const found = store.credentials(secret);
  const key = found?.key;
  if (!key) return fail(MESSAGES.invalidKey);
  if (key.revokedAt) return fail(MESSAGES.revokedKey);
  const account = found.account;
  if (!account) return fail(MESSAGES.invalidKey);
  if (key.expiresAt && Date.parse(key.expiresAt) <= clocks.now(account)) {
    return fail(MESSAGES.expiredKey);
  }
  c.set('auth', { account, key });
  return undefined;
}
