import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { DEFAULT_VERSION, type ServiceVersion, SUPPORTED_VERSIONS } from '../contract/common.js';
import { wallNow } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import { type Answer, andThen, answering } from './answer.js';
import { bodyChecks } from './body-limit.js';
import { checkFaults, faultable, faultHeaderParser } from './faults.js';
import { recordRequest } from './journal.js';

/** What serves a request once its context is set: a route's handler, or Hono's next layers. */
export type Inner = () => Answer;

/** Runs one request's whole life around what serves it; see {@link requestContext}. */
export type Serve = (c: Context<AppEnv>, inner: Inner) => Answer;

/**
 * First in the pipeline, around everything else: gives the request its deterministic `req_` id
 * and the version it will be served at, applies `X-Emulator-Fault` and the fault rules (product
 * paths), then the body checks (413, JSON depth), journals the request (all but `/_control`),
 * and stamps `X-Request-Id` and `Service-Version` on whatever response comes back, errors
 * included (API document sections 2.1 and 9.3). An unsupported version is answered at the
 * default version; the pipeline rejects it after authentication.
 *
 * Synchronous until something has to be waited for, and a check that fails answers its error
 * instead of throwing it. Under load a JavaScript `throw` cost 1.5 to 4.5 us a request by CPU
 * profile (V8 computes the message location of every throw, summarizing the optimized frame),
 * a function that a throw leaves is never optimized (it spends no tier-up budget), and each Hono
 * layer cost a dispatch and promises; a product route is one Hono handler that calls this
 * (app.ts), so Hono skips its compose and a synchronous answer is written without a promise
 * (issue 12).
 * @example const serve = requestContext(deps); app.get('/docs', (c) => serve(c, () => page(c)))
 */
export function requestContext(deps: Deps): Serve {
  const parseFaultHeader = faultHeaderParser();
  const checkBody = bodyChecks();
  return (c, inner) => {
    openRequest(c, deps);
    const path = c.req.path;
    // Arrows written inline: a named one would be named again on every call (tsx's keepNames).
    if (path.startsWith('/_control')) {
      return andThen(
        answering(c, () => checkBody(c, inner)),
        (res) => stamped(c, res),
      );
    }
    const startedWall = wallNow();
    const faulted = (deps.faults.size > 0 || c.req.header('x-emulator-fault')) && faultable(path);
    const answer = faulted
      ? answering(c, () => afterFaults(c, parseFaultHeader, () => checkBody(c, inner)))
      : answering(c, () => checkBody(c, inner));
    return andThen(answer, (res) => {
      recordRequest(c, deps, path, startedWall, res);
      // A dropped connection has no response to stamp.
      return c.get('dropped') ? res : stamped(c, res);
    });
  };
}

/** The request id and the version the request is served at. */
function openRequest(c: Context<AppEnv>, deps: Deps): void {
  c.set('deps', deps);
  c.set('requestId', deps.ids.requestId(deps.systemClock.now()));
  const asked = c.req.header('service-version');
  const known = SUPPORTED_VERSIONS.find((v) => v === asked);
  c.set('version', (known ?? DEFAULT_VERSION) as ServiceVersion);
  // Parsed once here; `checkVersion` rejects it after authentication (order of checks).
  if (asked !== undefined && !known) c.set('unsupportedVersion', asked);
}

/** The fault's answer, or what follows when no fault answers (after any delay). */
function afterFaults(
  c: Context<AppEnv>,
  parseFaultHeader: ReturnType<typeof faultHeaderParser>,
  next: Inner,
): Answer {
  const faulted = checkFaults(c, parseFaultHeader);
  if (faulted instanceof Promise) return faulted.then((res) => res ?? next());
  return faulted ?? next();
}

function stamped(c: Context<AppEnv>, res: Response): Response {
  stampHeaders(c.env, res, c.get('requestId'), c.get('version'));
  return res;
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
