import { type ApiError, apiError, MESSAGES } from './errors.js';
import type { Account, ApiKeyRecord } from './records.js';

/**
 * API document section 5.4: a `write` scope implies `read` on the same resource.
 * @example hasScope(['webhooks:write'], 'webhooks:read') // true
 */
export function hasScope(granted: readonly string[], needed: string): boolean {
  if (granted.includes(needed)) return true;
  const [resource, verb] = needed.split(':');
  return verb === 'read' && granted.includes(`${resource}:write`);
}

/** What an operation needs: a key's scope, the account's feature. */
export interface Guards {
  scope?: string | undefined;
  feature?: string | undefined;
}

/**
 * The 403s of an operation's guards: the key's scope (API document section 5.5), then the
 * account's feature. An operation whose scope depends on what it reads (GET
 * /v1/operations/{id}) calls it once it knows.
 */
export function assertAccess(
  key: Pick<ApiKeyRecord, 'scopes'>,
  account: Pick<Account, 'features'>,
  guards: Guards,
): void {
  const denied = accessDenied(key, account, guards);
  if (denied) throw denied;
}

/** The 403 of {@link assertAccess}, returned: the pipeline answers it without throwing it. */
export function accessDenied(
  key: Pick<ApiKeyRecord, 'scopes'>,
  account: Pick<Account, 'features'>,
  { scope, feature }: Guards,
): ApiError | undefined {
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
