/**
 * `--cors`: lets a web page on a listed origin call the product API (inferred, as Prism's `--cors`
 * does), so browser-based SDK tests can run against the emulator. Off by default; an origin not
 * listed gets no CORS header and the same answer as without `--cors`.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../core/env.js';

/** What a page may send: the API document's headers, the fault shortcut and range requests. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Service-Version',
  'X-Emulator-Fault',
  'Range',
  'If-Range',
  'If-None-Match',
].join(', ');

/** What a page may read beyond the safelisted headers: ids, versions, retries, archive headers. */
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'Retry-After',
  'Service-Version',
  'Idempotent-Replayed',
  'Content-Disposition',
  'Content-Range',
  'Accept-Ranges',
  'ETag',
].join(', ');

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/**
 * First on the product paths, before faults and authentication: a preflight (an `OPTIONS` with
 * `Access-Control-Request-Method`) from a listed origin answers 204 at once, as it carries no key;
 * any other request from one gets the CORS headers on whatever it is answered, errors included.
 * The headers are set before the answer is made, as `requestContext` sets its own.
 * @example app.use('/v1/*', cors(['http://localhost:3000']))
 */
export function cors(origins: readonly string[]): MiddlewareHandler<AppEnv> {
  const any = origins.includes('*');
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || !(any || origins.includes(origin.toLowerCase()))) return next();
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Vary', 'Origin', { append: true });
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      return c.body(null, 204, {
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
        'Access-Control-Max-Age': '600',
      });
    }
    c.header('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
    await next();
  };
}
