import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../api/env.js';
import { DEFAULT_VERSION, type ServiceVersion, SUPPORTED_VERSIONS } from '../contract/common.js';
import type { Deps } from '../runtime/deps.js';

/**
 * First in the pipeline: the request's deterministic `req_` id and served version, and
 * `X-Request-Id` and `Service-Version` on every response, errors included (API document sections
 * 2.1 and 9.3); an unsupported version is served at the default until `checkVersion` rejects it.
 * @example app.use(requestContext(deps))
 */
export function requestContext(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('deps', deps);
    c.set('requestId', deps.ids.requestId(deps.systemClock.now()));
    const asked = c.req.header('service-version');
    const known = SUPPORTED_VERSIONS.find((v) => v === asked);
    c.set('version', (known ?? DEFAULT_VERSION) as ServiceVersion);
    if (asked !== undefined && !known) c.set('unsupportedVersion', asked);
    await next();
    // A dropped connection has no response to carry them.
    if (c.get('dropped')) return;
    c.header('X-Request-Id', c.get('requestId'));
    c.header('Service-Version', c.get('version'));
  };
}
