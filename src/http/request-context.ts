import type { ServerResponse } from 'node:http';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../api/env.js';
import { DEFAULT_VERSION, type ServiceVersion, SUPPORTED_VERSIONS } from '../contract/common.js';
import { wallNow } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import { checkFaults, faultable, faultHeaderParser } from './faults.js';
import { recordRequest } from './journal.js';
import { renderError } from './render-error.js';

/**
 * First in the pipeline: gives the request its deterministic `req_` id and the version it will be
 * served at, applies `X-Emulator-Fault` and the fault rules (product paths), journals the request
 * (all but `/_control`), and stamps `X-Request-Id` and `Service-Version` on whatever response
 * comes back, errors included (API document sections 2.1 and 9.3). An unsupported version is
 * answered at the default version; the version middleware rejects it after authentication.
 */
export function requestContext(deps: Deps) {
  const parseFaultHeader = faultHeaderParser();
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set('deps', deps);
    c.set('requestId', deps.ids.requestId(deps.systemClock.now()));
    const asked = c.req.header('service-version');
    const known = SUPPORTED_VERSIONS.find((v) => v === asked);
    c.set('version', (known ?? DEFAULT_VERSION) as ServiceVersion);
    // Parsed once here; `checkVersion` rejects it after authentication (order of checks).
    if (asked !== undefined && !known) c.set('unsupportedVersion', asked);
    const path = c.req.path;
    if (path.startsWith('/_control')) {
      await next();
      stampHeaders(c.env, c.res, c.get('requestId'), c.get('version'));
      return;
    }
    // One middleware for the request's whole life (journal and faults included): each Hono
    // layer costs a dispatch and a promise on every call (measured by `npm run bench`).
    const startedWall = wallNow();
    let dropped: Response | undefined;
    if ((deps.faults.size > 0 || c.req.header('x-emulator-fault')) && faultable(path)) {
      try {
        const checked = checkFaults(c, parseFaultHeader);
        dropped = checked instanceof Promise ? await checked : checked;
        if (!dropped) await next();
      } catch (err) {
        c.res = renderError(err as Error, c);
      }
    } else {
      await next();
    }
    recordRequest(c, deps, path, startedWall);
    if (dropped) return dropped;
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
