import { type ApiError, apiError, MESSAGES } from '../errors.js';
import type { Account, ApiKeyRecord } from './records.js';

/** API document section 5.4: a `write` scope implies `read` on the same resource. */
export function hasScope(
  granted: readonly string[],
  needed: string,
  implied: string | null = impliedBy(needed),
): boolean {
  return granted.includes(needed) || (implied !== null && granted.includes(implied));
}

/**
 * The other scope that grants `needed`: `<resource>:write` for `<resource>:read`, else none.
 * @example impliedBy('webhooks:read') // 'webhooks:write'
 */
export function impliedBy(needed: string): string | null {
  const [resource, verb] = needed.split(':');
  return verb === 'read' ? `${resource}:write` : null;
}

/**
 * The 403s of an operation's guards: the key's scope (API document section 5.5), then the
 * account's feature; undefined when both pass. An operation whose scope depends on what it reads
 * (GET /v1/operations/{id}) uses {@link assertAccess}.
 */
export function accessError(
  key: Pick<ApiKeyRecord, 'scopes'>,
  account: Pick<Account, 'features'>,
  guard: { scope?: string | undefined; feature?: string | undefined; impliedScope?: string | null },
): ApiError | undefined {
  const { scope, feature } = guard;
  // A route's guard carries the implied scope, worked out once (http/pipeline.ts).
  const implied = guard.impliedScope === undefined && scope ? impliedBy(scope) : guard.impliedScope;
  if (scope && !hasScope(key.scopes, scope, implied ?? null)) {
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
