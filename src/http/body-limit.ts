import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../core/env.js';
import { apiError } from '../core/errors.js';

/** DESIGN.md section 3: a body over 1 MiB answers 413 `request_too_large`. */
export const MAX_BODY_BYTES = 1024 * 1024;

const limit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw apiError('request_too_large');
  },
});

/**
 * How the request's body is framed. Served by Node, its framing headers tell, and Node's parser
 * holds the body to its `Content-Length`; asking Hono (`c.req.raw.body`) would build the whole
 * WHATWG Request, its body stream and its AbortSignal.
 */
function framing(c: Context<AppEnv>): 'none' | 'length' | 'stream' {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return 'none';
  if ((c.env as Partial<HttpBindings> | undefined)?.incoming === undefined) return 'stream';
  if (c.req.header('transfer-encoding') !== undefined) return 'stream';
  const length = c.req.header('content-length');
  return length === undefined || length === '0' ? 'none' : 'length';
}

/**
 * 413 over 1 MiB, before authentication (docs/api.md "Order of checks"): by its `Content-Length`,
 * else (chunked, or under `app.request()`) by Hono's `bodyLimit`, which counts the bytes as they
 * arrive. Nothing here reads a body the size tells: a route that takes one reads it (json-depth.ts).
 * @example app.use(bodySize)
 */
export const bodySize: MiddlewareHandler<AppEnv> = (c, next) => {
  const how = framing(c);
  if (how === 'none') return next();
  if (how === 'stream') return limit(c, next);
  if (Number(c.req.header('content-length')) > MAX_BODY_BYTES) throw apiError('request_too_large');
  return next();
};
