import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { DEFAULT_VERSION } from '../contract/common.js';
import { hasScope } from '../domain/scopes.js';
import { apiError } from '../errors.js';
import { checkVersion } from './check-version.js';
import type { AppEnv } from './env.js';
import { idempotent } from './idempotency.js';

interface GuardedRoute {
  method: string;
  security?: unknown[];
  'x-service-versions'?: readonly string[];
  'x-required-scope'?: string;
  'x-required-feature'?: string;
}

/**
 * Turns a route's guard data (see `operationGuards()` in the contract) into its first
 * middleware: the per-operation version list under --strict-versions, then the scope (403
 * `missing_scope`), then the account feature (403 `feature_not_enabled`). A keyless route
 * (empty `security`, served before the /v1 authentication layer) gets the version checks only.
 * @example app.openapi(guardRoute(listTwinFilesRoute), handler)
 */
export function guardRoute<R extends GuardedRoute>(
  route: R,
): R & { middleware: MiddlewareHandler[] } {
  const versions = route['x-service-versions'];
  const scope = route['x-required-scope'];
  const feature = route['x-required-feature'];
  const isPost = route.method.toLowerCase() === 'post';
  // A keyless route (GET /v1/status) is served before authentication: no account to check.
  const keyless = route.security?.length === 0;
  const bodySchema = (
    route as { request?: { body?: { content?: Record<string, { schema?: unknown }> } } }
  ).request?.body?.content?.['application/json']?.schema as
    | Parameters<typeof idempotent>[2]
    | undefined;
  const guard = createMiddleware<AppEnv>(async (c, next) => {
    // The /v1 layer that checks the version for every other route does not run for this one.
    if (keyless) checkVersion(c);
    if (versions && c.get('deps').config.strictVersions && !versions.includes(c.get('version'))) {
      // The rejection is served at the default version, like any unsupported value (section 9.3).
      c.set('version', DEFAULT_VERSION);
      throw apiError('unsupported_version', {
        param: 'Service-Version',
        message: `This operation supports Service-Version ${versions.join(', ')} only.`,
      });
    }
    if (keyless) return next();
    const { key, account } = c.get('auth');
    if (scope && !hasScope(key.scopes, scope)) {
      throw apiError('missing_scope', {
        message: `This API key lacks the '${scope}' scope this call needs.`,
        details: { required_scope: scope },
      });
    }
    if (feature && !account.features.includes(feature)) {
      throw apiError('feature_not_enabled', {
        message: `The '${feature}' feature is not enabled for this account.`,
        details: { feature },
      });
    }
    const rpm = account.limits.requests_per_minute;
    if (rpm !== undefined) {
      const admitted = c.get('deps').limiter.admit(account.id, rpm, c.get('now'));
      if ('retryAfterS' in admitted) {
        throw apiError('rate_limit_exceeded', {
          message: `The account allows ${rpm} requests per minute. Retry after ${admitted.retryAfterS} s.`,
          details: { requests_per_minute: rpm },
          headers: { 'Retry-After': String(admitted.retryAfterS) },
        });
      }
    }
    if (isPost) return idempotent(c, next, bodySchema);
    await next();
  });
  return { ...route, middleware: [guard] };
}
