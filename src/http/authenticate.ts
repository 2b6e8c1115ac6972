import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { type ApiError, apiError, MESSAGES } from '../errors.js';

const BEARER = /^Bearer +(\S+)$/i;

const fail = (message: string) => apiError('unauthenticated', { message });

/** The secret of an `Authorization: Bearer <secret>` header, if it has that form. */
export function bearerSecret(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/**
 * API document section 5: `Authorization: Bearer svc_...`. Missing, malformed, unknown, revoked
 * and expired keys all answer 401 `unauthenticated`; the message says which, the code does not.
 * Answers that error, or undefined once `auth` is set: the pipeline renders it (pipeline.ts).
 */
export function authenticate(c: Context<AppEnv>): ApiError | undefined {
  const { store, clocks } = c.get('deps');
  const header = c.req.header('authorization');
  if (!header) return fail(MESSAGES.noKey);
  const secret = bearerSecret(header);
  if (!secret) return fail(MESSAGES.malformedAuthorization);
  if (!secret.startsWith('svc_')) return fail(MESSAGES.keyPrefix);
  const caller = c.get('caller');
  const digest = caller?.digest ?? store.digestOf(secret);
  // Cached in memory, invalidated by every write to keys and accounts (store/credentials.ts);
  // the fault check may have looked it up already in this request (http/caller.ts).
  const found = caller?.found ?? store.credentials(digest);
  const key = found?.key;
  // The lookup is by digest; the final comparison is constant-time all the same.
  if (!key || !timingSafeEqual(key.secretSha256, digest)) return fail(MESSAGES.invalidKey);
  if (key.revokedAt) return fail(MESSAGES.revokedKey);
  const account = found.account;
  if (!account) return fail(MESSAGES.invalidKey);
  if (key.expiresAt && Date.parse(key.expiresAt) <= clocks.now(account)) {
    return fail(MESSAGES.expiredKey);
  }
  c.set('auth', { account, key });
  return undefined;
}
