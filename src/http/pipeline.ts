/**
 * The product API's request pipeline, top to bottom (docs/api.md "Order of checks"): each step is
 * Hono middleware that throws its error, which the one `onError` (render-error.ts) renders; the
 * 401 and 403 are answered at once instead (see `guarded`).
 * On the product paths, with `--cors`: a listed origin's preflight answers 204 (cors.ts: hono/cors), before all else.
 * On every path:
 *   requestContext    request id, served version; `X-Request-Id`/`Service-Version` on every answer
 *   journal           records every product request once answered, faulted and dropped included
 *   1. faults         `X-Emulator-Fault`, then the fault rules (product paths and /_downloads)
 *   2. bodySize       413 `request_too_large` over 1 MiB (by `Content-Length` where it is sent)
 * then on a product route, as its route data asks (`routeSteps`):
 *      checkJsonDepth a route that takes a JSON body reads it here, once: 400 when nested too deep
 *   3. authenticate   401 `unauthenticated`                  (keyless routes skip it)
 *   4. checkVersion   400 `unsupported_version`
 *   5. settle         the caller's account brought to "now" on its clock
 *   6. versions       under --strict-versions, the operation's own list: 400
 *   7. authorize      403 `missing_scope`, then `feature_not_enabled`
 *   8. rateLimit      429 `rate_limit_exceeded` with `Retry-After`
 *   9. idempotency    `Idempotency-Key` on POST: replay, or (after validation) 409
 * then zod validation (400 `parameter_invalid` as the one validation hook words it: the query and
 * path by `pathAndQuery`, headers and the JSON body by zod-openapi) and the handler (404, 409,
 * 402, 429 concurrency, success). A path no route serves goes to `unknownPath`.
 */

import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { faults } from '../areas/faults/faults-middleware.js';
import { journal } from '../areas/requests/journal-middleware.js';
import { authenticate, authenticated } from '../core/accounts/authenticate.js';
import { DEFAULT_VERSION, SUPPORTED_VERSIONS } from '../core/contract.js';
import type { AppEnv } from '../core/env.js';
import { envelopeAnswer } from '../core/envelope.js';
import { apiError, MESSAGES } from '../core/errors.js';
import { accessDenied } from '../core/scopes.js';
import type { Deps } from '../engine/deps.js';
import { settleSliced } from '../engine/sliced-settle.js';
import { bodySize } from './body-limit.js';
import { cors } from './cors.js';
import { type BodySchema, idempotency } from './idempotency.js';
import { checkJsonDepth } from './json-depth.js';
import { requestContext, serveAt } from './request-context.js';

/**
 * The steps every path takes, before any route's own; `first` (the recording of replay bundles)
 * before them all.
 */
export function usePipeline(
  app: OpenAPIHono<AppEnv>,
  deps: Deps,
  first?: MiddlewareHandler<AppEnv>,
): void {
  // Fewer Hono layers, same order: each layer costs Hono's dispatch a promise, a closure and
  // ~0.4 KB a call (docs/development.md "Why it is fast"). The request context never throws and
  // does nothing after `next`, so it runs first in the journal's layer; `first` wraps that layer
  // as it would wrap the layers after it, unless CORS preflights come between them.
  const corsOn = deps.config.cors.length > 0;
  if (first && corsOn) app.use(first);
  if (corsOn) {
    const allowCors = cors(deps.config.cors);
    for (const path of ['/v1', '/v1/*', '/_downloads/*', '/openapi.json']) app.use(path, allowCors);
  }
  const setContext = requestContext(deps);
  const contextAndJournal: MiddlewareHandler<AppEnv> = (c, next) => {
    setContext(c);
    return journal(c, next);
  };
  const outer = corsOn ? undefined : first;
  app.use(
    outer
      ? (c, next) => outer(c, () => contextAndJournal(c, next) as Promise<void>)
      : contextAndJournal,
  );
  app.use(faults);
  app.use(bodySize);
}

/** The part of a `createRoute()` definition its steps are read from (`operationGuards()`). */
export interface GuardedRoute {
  method: string;
  security?: unknown[];
  'x-service-versions'?: readonly string[];
  'x-required-scope'?: string;
  'x-required-feature'?: string;
  request?: { body?: { content?: Readonly<Record<string, object | undefined>> } };
}

/**
 * Steps 3 to 9 for a product route, in order, as one middleware, after the JSON depth check of a
 * route that takes a body (a route that takes none never reads one); the status area needs no key
 * (API document section 5.1), so it is only version-checked.
 */
export function routeSteps(route: GuardedRoute): MiddlewareHandler<AppEnv>[] {
  const versions = route['x-service-versions'];
  const scope = route['x-required-scope'];
  const feature = route['x-required-feature'];
  if (route.security?.length === 0)
    return [
      (c, next) => {
        checkVersion(c);
        checkOperationVersion(c, versions);
        return next();
      },
    ];
  const media = route.request?.body?.content?.['application/json'];
  const body = (media && 'schema' in media ? media.schema : undefined) as BodySchema | undefined;
  const idempotent = route.method.toUpperCase() === 'POST' ? idempotency(body) : undefined;
  return [
    ...(body ? [checkJsonDepth] : []),
    (c, next) => {
      const refused = authenticated(c);
      if (refused) return Promise.resolve(envelopeAnswer(c, refused));
      checkVersion(c);
      const settling = settle(c);
      return settling ? settling.then(() => guarded(c, next)) : guarded(c, next);
    },
  ];

  /**
   * Steps 6 to 9. The 401 above and the 403 here are answered at once, not thrown
   * (core/envelope.ts): thrown, each cost V8's walk of the stack for a message, about 15,000
   * instructions (docs/development.md "Why it is fast"); handed back rejected, a throw at Hono's
   * await.
   */
  function guarded(c: Context<AppEnv>, next: Next): ReturnType<MiddlewareHandler> {
    checkOperationVersion(c, versions);
    const { key, account } = c.get('auth');
    const denied = accessDenied(key, account, { scope, feature });
    if (denied) return Promise.resolve(envelopeAnswer(c, denied));
    rateLimit(c);
    return idempotent ? idempotent(c, next) : next();
  }
}

/**
 * A path no route serves: a `/v1` one is authenticated (so 401 without a key, docs/api.md),
 * version-checked and settled like any product call first; then 404.
 */
export async function unknownPath(c: Context<AppEnv>): Promise<Response> {
  const path = c.req.path;
  if (path === '/v1' || path.startsWith('/v1/')) {
    authenticate(c);
    checkVersion(c);
    await settle(c);
  }
  throw apiError('resource_not_found', { message: MESSAGES.unrecognized(c.req.method, path) });
}

/**
 * API document section 9.2: a sent `Service-Version` must be supported, else 400
 * `unsupported_version`; both are accepted everywhere unless `--strict-versions` (DESIGN.md 3).
 */
function checkVersion(c: Context<AppEnv>): void {
  const asked = c.get('unsupportedVersion');
  if (asked === undefined) return;
  throw apiError('unsupported_version', {
    param: 'Service-Version',
    message: MESSAGES.unsupportedVersion(asked, SUPPORTED_VERSIONS),
  });
}

/** DESIGN.md section 2: the account is brought to the request's fixed now before its handler. */
function settle(c: Context<AppEnv>): Promise<unknown> | undefined {
  const { account } = c.get('auth');
  const deps = c.get('deps');
  const now = deps.clocks.now(account);
  c.set('now', now);
  return settleSliced(deps, account, now);
}

/** --strict-versions: the versions the API document lists for this operation only. */
function checkOperationVersion(c: Context<AppEnv>, versions: readonly string[] | undefined): void {
  if (!versions || !c.get('deps').config.strictVersions) return;
  if (versions.includes(c.get('version'))) return;
  // The rejection is served at the default version, like any unsupported value (section 9.3).
  serveAt(c, DEFAULT_VERSION);
  throw apiError('unsupported_version', {
    param: 'Service-Version',
    message: MESSAGES.operationVersions(versions),
  });
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
