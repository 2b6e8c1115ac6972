import { createMiddleware } from 'hono/factory';
import { DEFAULT_VERSION, type ServiceVersion, SUPPORTED_VERSIONS } from '../contract/common.js';
import type { AppEnv, Deps } from './env.js';

/**
 * First in the pipeline: gives the request its deterministic `req_` id and the version it will be
 * served at, and stamps `X-Request-Id` and `Service-Version` on whatever response comes back,
 * errors included (API document sections 2.1 and 9.3). An unsupported version is answered at the
 * default version; the version middleware rejects it after authentication.
 */
export function requestContext(deps: Deps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set('deps', deps);
    c.set('requestId', deps.ids.requestId(deps.systemClock.now()));
    const asked = c.req.header('service-version');
    const known = SUPPORTED_VERSIONS.find((v) => v === asked);
    c.set('version', (known ?? DEFAULT_VERSION) as ServiceVersion);
    await next();
    if (c.get('dropped')) return;
    c.res.headers.set('X-Request-Id', c.get('requestId'));
    c.res.headers.set('Service-Version', c.get('version'));
  });
}
