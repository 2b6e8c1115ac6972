import type { ServerResponse } from 'node:http';
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
    stampHeaders(c.env, c.res, c.get('requestId'), c.get('version'));
  });
}

/**
 * Served by `@hono/node-server`, the headers go onto Node's `ServerResponse`, which merges them
 * into the head it writes once the app's Response comes back. Setting them on the Response
 * instead would turn the adapter's plain header object into a WHATWG `Headers` (about 5 us of a
 * 90 us `GET /v1/keys/me`, measured by `npm run bench`). Handlers never set these two headers
 * themselves, so the outcome is the same either way; `app.request()` (tests, no Node response)
 * gets them on the Response.
 */
function stampHeaders(env: unknown, res: Response, requestId: string, version: string): void {
  const outgoing = (env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && typeof outgoing.setHeader === 'function' && !outgoing.headersSent) {
    outgoing.setHeader('X-Request-Id', requestId);
    outgoing.setHeader('Service-Version', version);
    return;
  }
  res.headers.set('X-Request-Id', requestId);
  res.headers.set('Service-Version', version);
}
