/**
 * `--cors`: lets a web page on a listed origin call the product API (inferred, as Prism's `--cors`
 * does), so browser-based SDK tests can run against the emulator. Off by default; an origin not
 * listed gets no CORS header and the same answer as without `--cors`.
 */
import type { MiddlewareHandler } from 'hono';
import { cors as honoCors } from 'hono/cors';
import type { AppEnv } from '../core/env.js';

/** What a page may send: the API document's headers, the fault shortcut and range requests. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Service-Version',
  'X-Emulator-Fault',
  'Range',
  'If-Range',
  'If-None-Match',
];

/** What a page may read beyond the safelisted headers: ids, versions, retries, archive headers. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'Retry-After',
  'Service-Version',
  'Idempotent-Replayed',
  'Content-Disposition',
  'Content-Range',
  'Accept-Ranges',
  'ETag',
];

/**
 * First on the product paths, before faults and authentication: hono's CORS middleware, for a
 * request from a listed origin only. It answers that origin's preflight 204 at once, as a preflight
 * carries no key, and puts the CORS headers on any other answer, errors included. A request from
 * another origin (or none) never enters it: hono's middleware would answer its preflight 204 and
 * name the allowed methods and headers, where the emulator answers as without `--cors`.
 * @example app.use('/v1/*', cors(['http://localhost:3000']))
 */
export function cors(origins: readonly string[]): MiddlewareHandler<AppEnv> {
  const any = origins.includes('*');
  const listed = (origin: string | undefined) =>
    origin !== undefined && (any || origins.includes(origin.toLowerCase()));
  const allow = honoCors({
    // The origin itself, `*` included: the answer names the page that asked (and varies by it).
    origin: (origin) => origin,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  return (c, next) => (listed(c.req.header('origin')) ? allow(c, next) : next());
}
