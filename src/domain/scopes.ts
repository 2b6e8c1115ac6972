import { ALL_SCOPES } from '../contract/scopes.js';
import { type ApiError, apiError, MESSAGES } from '../errors.js';
import type { Account, ApiKeyRecord } from './records.js';

export { ALL_SCOPES };

/** API document section 5.4: a `write` scope implies `read` on the same resource. */
export function hasScope(granted: readonly string[], needed: string): boolean {
  if (granted.includes(needed)) return true;
  // `<resource>:<verb>`, read without splitting: every guarded call asks (issue 12).
  const colon = needed.indexOf(':');
  if (colon === -1) return false;
  const end = needed.indexOf(':', colon + 1);
  const verb = needed.slice(colon + 1, end === -1 ? undefined : end);
  return verb === 'read' && granted.includes(`${needed.slice(0, colon)}:write`);
}

export function isKnownScope(scope: string): boolean {
  return (ALL_SCOPES as readonly string[]).includes(scope);
}

/**
 * The 403s of an operation's guards: the key's scope (API document section 5.5), then the
 * account's feature; undefined when both pass. The pipeline applies a route's own guards and
 * answers the error itself; an operation whose scope depends on what it reads
 * (GET /v1/operations/{id}) applies the kind's through {@link assertAccess}.
 */
export function accessError(
  key: Pick<ApiKeyRecord, 'scopes'>,
  account: Pick<Account, 'features'>,
  guard: { scope?: string | undefined; feature?: string | undefined },
): ApiError | undefined {
  const { scope, feature } = guard;
  if (scope && !hasScope(key.scopes, scope)) {
    return apiError('missing_scope', {
      message: MESSAGES.missingScope(scope),
      details: { required_scope: scope },
    });
  }
  if (feature && !account.features.includes(feature)) {
    return apiError('feature_not_enabled', {
      message: MESSAGES.featureOff(feature),
      details: { feature },
    });
  }
  return undefined;
}

/** {@link accessError}, thrown. */
export function assertAccess(
  key: Pick<ApiKeyRecord, 'scopes'>,
  account: Pick<Account, 'features'>,
  guard: { scope?: string | undefined; feature?: string | undefined },
): void {
  const err = accessError(key, account, guard);
  if (err) throw err;
}
