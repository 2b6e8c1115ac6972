/**
 * The request pipeline of the product API, top to bottom (docs/api.md "Order of checks"; DESIGN.md
 * section 3 "Order of checks"). Each step is a named function that answers the API-shaped error
 * when its check fails, and the pipeline returns that error's envelope at once, as in
 * stripe-mock's `HandleRequest`:
 *
 *   request context   request id, served version, `X-Request-Id`/`Service-Version` on the
 *                     answer; journal; `X-Emulator-Fault` and fault rules    (request-context.ts)
 *   body checks       413 `request_too_large` over 1 MiB, JSON depth        (body-limit.ts)
 *   1. authenticate   401 `unauthenticated`                  (keyless routes skip it)
 *   2. checkVersion   400 `unsupported_version` (both versions; the operation's own list
 *                     under --strict-versions)
 *   3. settle         the caller's account brought to "now" on its clock
 *   4. authorize      403 `missing_scope`, then `feature_not_enabled`
 *   5. rateLimit      429 `rate_limit_exceeded` with `Retry-After`
 *   6. idempotency    `Idempotency-Key` on POST: replay, or (after validation) 409
 *   then the route:   zod validation (400 `parameter_invalid`, one `invalidAnswer`), the handler
 *                     (404 lookup, 409 state, 402 credits, 429 concurrency, success)
 *
 * The guards of each route (scope, feature, version list, keyless) are route data, read from its
 * definition when it is registered (`routeGuard`).
 */
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { DEFAULT_VERSION } from '../contract/common.js';
import { accessError, impliedBy } from '../domain/scopes.js';
import { type ApiError, apiError, MESSAGES } from '../errors.js';
import type { Answer } from './answer.js';
import { authenticate } from './authenticate.js';
import { checkVersion } from './check-version.js';
import { type BodySchema, idempotent } from './idempotency.js';
import { renderError } from './render-error.js';
import { settle } from './settle-account.js';

/** A route's guards, as `operationGuards()` in the contract writes them. */
export interface RouteGuard {
  versions?: readonly string[];
  scope?: string;
  /** The other scope that grants `scope` (domain/scopes.ts `impliedBy`), null for none. */
  impliedScope?: string | null;
  feature?: string;
  keyless: boolean;
  isPost: boolean;
  bodySchema?: BodySchema;
}

/** The part of a `createRoute()` definition the guards are read from. */
export interface GuardedRoute {
  method: string;
  path: string;
  security?: unknown[];
  'x-service-versions'?: readonly string[];
  'x-required-scope'?: string;
  'x-required-feature'?: string;
  request?: { body?: { content?: Record<string, { schema?: unknown }> } };
}

/** A product route's guards, as `operationGuards()` in the contract wrote them into it. */
export function routeGuard(r: GuardedRoute): RouteGuard {
  const method = r.method.toUpperCase();
  const scope = r['x-required-scope'];
  return {
    versions: r['x-service-versions'],
    scope,
    impliedScope: scope === undefined ? null : impliedBy(scope),
    feature: r['x-required-feature'],
    // The status area needs no key (API document section 5.1).
    keyless: r.security?.length === 0,
    isPost: method === 'POST',
    bodySchema: r.request?.body?.content?.['application/json']?.schema as BodySchema | undefined,
  };
}

/**
 * Steps 1 to 6 for a `/v1` call, then `route`; `guard` is undefined for a path no route serves
 * (it is authenticated, then answered 404). Synchronous unless the account's settle or the
 * route has to be waited for. A failed check answers its envelope instead of throwing it: a
 * throw through async layers cost a 401 or 403 several microseconds more than keys/me under
 * load (issue 12, by CPU profile).
 * @example productPipeline(c, routeGuard(route), () => handler(c))
 */
export function productPipeline(
  c: Context<AppEnv>,
  guard: RouteGuard | undefined,
  route: () => Answer,
): Answer {
  if (guard?.keyless) {
    const failed = checkVersion(c) ?? checkOperationVersion(c, guard);
    return failed ? renderError(failed, c) : route();
  }
  const failed = authenticate(c) ?? checkVersion(c);
  if (failed) return renderError(failed, c);
  const settling = settle(c);
  if (settling) return settling.then(() => afterSettle(c, guard, route));
  return afterSettle(c, guard, route);
}

/** Steps 2 (the operation's versions) and 4 to 6, once the account is settled. */
function afterSettle(
  c: Context<AppEnv>,
  guard: RouteGuard | undefined,
  route: () => Answer,
): Answer {
  if (!guard) return route();
  const failed = checkOperationVersion(c, guard) ?? authorize(c, guard) ?? rateLimit(c);
  if (failed) return renderError(failed, c);
  return guard.isPost ? idempotent(c, route, guard.bodySchema) : route();
}

/** --strict-versions: the versions the API document lists for this operation only. */
function checkOperationVersion(c: Context<AppEnv>, guard: RouteGuard): ApiError | undefined {
  const versions = guard.versions;
  if (!versions || !c.get('deps').config.strictVersions) return undefined;
  if (versions.includes(c.get('version'))) return undefined;
  // The rejection is served at the default version, like any unsupported value (section 9.3).
  c.set('version', DEFAULT_VERSION);
  return apiError('unsupported_version', {
    param: 'Service-Version',
    message: MESSAGES.operationVersions(versions),
  });
}

/** 403: the key's scope (API document section 5.5), then the account's feature. */
function authorize(c: Context<AppEnv>, guard: RouteGuard): ApiError | undefined {
  const { key, account } = c.get('auth');
  return accessError(key, account, guard);
}

/** 429 with `Retry-After` when the account's `requests_per_minute` is used up. */
function rateLimit(c: Context<AppEnv>): ApiError | undefined {
  const { account } = c.get('auth');
  const rpm = account.limits.requests_per_minute;
  if (rpm === undefined) return undefined;
  const admitted = c.get('deps').limiter.admit(account.id, rpm, c.get('now'));
  if (!('retryAfterS' in admitted)) return undefined;
  return apiError('rate_limit_exceeded', {
    message: MESSAGES.rateLimited(rpm, admitted.retryAfterS),
    details: { requests_per_minute: rpm },
    headers: { 'Retry-After': String(admitted.retryAfterS) },
  });
}
