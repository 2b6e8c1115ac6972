/**
 * The request pipeline of the product API, top to bottom (docs/api.md "Order of checks"; DESIGN.md
 * section 3 "Order of checks"). Each step is a named function that returns early by throwing the
 * API-shaped error, as in stripe-mock's `HandleRequest`:
 *
 *   request context   request id, served version, `X-Request-Id`/`Service-Version` on the
 *                     answer; journal; `X-Emulator-Fault` and fault rules    (request-context.ts)
 *   body limit        413 `request_too_large` on bodies over 1 MiB            (app.ts)
 *   1. authenticate   401 `unauthenticated`                  (keyless routes skip it)
 *   2. checkVersion   400 `unsupported_version` (both versions; the operation's own list
 *                     under --strict-versions)
 *   3. settle         the caller's account brought to "now" on its clock
 *   4. authorize      403 `missing_scope`, then `feature_not_enabled`
 *   5. rateLimit      429 `rate_limit_exceeded` with `Retry-After`
 *   6. idempotency    `Idempotency-Key` on POST: replay, or (after validation) 409
 *   then the route:   zod validation (400 `parameter_invalid`, one `defaultHook`), the handler
 *                     (404 lookup, 409 state, 402 credits, 429 concurrency, success)
 *
 * The guards of each route (scope, feature, version list, keyless) are route data, read once
 * from the OpenAPI registry when the app is built (`routeGuards`).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import type { AppEnv } from '../api/env.js';
import { DEFAULT_VERSION } from '../contract/common.js';
import { assertAccess } from '../domain/scopes.js';
import { apiError, MESSAGES } from '../errors.js';
import { authenticate } from './authenticate.js';
import { checkVersion } from './check-version.js';
import { type BodySchema, idempotent } from './idempotency.js';
import { settle } from './settle-account.js';

/** A route's guards, as `operationGuards()` in the contract writes them. */
export interface RouteGuard {
  versions?: readonly string[];
  scope?: string;
  feature?: string;
  keyless: boolean;
  isPost: boolean;
  bodySchema?: BodySchema;
}

/** Guards by `METHOD /hono/:path`, the key `guardOf` looks up. */
export type RouteGuards = Map<string, RouteGuard>;

interface GuardedDefinition {
  type: string;
  route?: {
    method: string;
    path: string;
    security?: unknown[];
    'x-service-versions'?: readonly string[];
    'x-required-scope'?: string;
    'x-required-feature'?: string;
    request?: { body?: { content?: Record<string, { schema?: unknown }> } };
  };
}

/** Reads every product route's guards from the registry's definitions. */
export function routeGuards(definitions: readonly GuardedDefinition[]): RouteGuards {
  const guards: RouteGuards = new Map();
  for (const def of definitions) {
    const r = def.type === 'route' ? def.route : undefined;
    if (!r || r.path.startsWith('/_control')) continue;
    const method = r.method.toUpperCase();
    const path = r.path.replace(/\{([^}]+)\}/g, ':$1');
    guards.set(`${method} ${path}`, {
      versions: r['x-service-versions'],
      scope: r['x-required-scope'],
      feature: r['x-required-feature'],
      // The status area needs no key (API document section 5.1).
      keyless: r.security?.length === 0,
      isPost: method === 'POST',
      bodySchema: r.request?.body?.content?.['application/json']?.schema as BodySchema | undefined,
    });
  }
  return guards;
}

/** The guards of the route Hono matched; undefined for a path no route serves. */
function guardOf(c: Context<AppEnv>, guards: RouteGuards): RouteGuard | undefined {
  const route = routePath(c, -1);
  return guards.get(`${c.req.method === 'HEAD' ? 'GET' : c.req.method} ${route}`);
}

/** Steps 1 to 6 for every `/v1` call, in one Hono layer (each layer costs a dispatch). */
export function productPipeline(guards: RouteGuards): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const guard = guardOf(c, guards);
    if (guard?.keyless) {
      checkVersion(c);
      checkOperationVersion(c, guard);
      return next();
    }
    authenticate(c);
    checkVersion(c);
    const settling = settle(c);
    if (settling) await settling;
    if (!guard) return next();
    checkOperationVersion(c, guard);
    authorize(c, guard);
    rateLimit(c);
    if (guard.isPost) return idempotent(c, next, guard.bodySchema);
    await next();
  });
}

/** --strict-versions: the versions the API document lists for this operation only. */
function checkOperationVersion(c: Context<AppEnv>, guard: RouteGuard): void {
  const versions = guard.versions;
  if (!versions || !c.get('deps').config.strictVersions) return;
  if (versions.includes(c.get('version'))) return;
  // The rejection is served at the default version, like any unsupported value (section 9.3).
  c.set('version', DEFAULT_VERSION);
  throw apiError('unsupported_version', {
    param: 'Service-Version',
    message: MESSAGES.operationVersions(versions),
  });
}

/** 403: the key's scope (API document section 5.5), then the account's feature. */
function authorize(c: Context<AppEnv>, guard: RouteGuard): void {
  const { key, account } = c.get('auth');
  assertAccess(key, account, guard);
}

/** 429 with `Retry-After` when the account's `requests_per_minute` is used up. */
function rateLimit(c: Context<AppEnv>): void {
  const { account } = c.get('auth');
  const rpm = account.limits.requests_per_minute;
  if (rpm === undefined) return;
  const admitted = c.get('deps').limiter.admit(account.id, rpm, c.get('now'));
  if (!('retryAfterS' in admitted)) return;
  throw apiError('rate_limit_exceeded', {
    message: MESSAGES.rateLimited(rpm, admitted.retryAfterS),
    details: { requests_per_minute: rpm },
    headers: { 'Retry-After': String(admitted.retryAfterS) },
  });
}
