import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../core/env.js';
import { apiError } from '../core/errors.js';
import { checkJsonDepth } from './json-depth.js';

/** DESIGN.md section 3: a body over 1 MiB answers 413 `request_too_large`. */
export const MAX_BODY_BYTES = 1024 * 1024;

const limit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw apiError('request_too_large');
  },
});

/**
 * Whether the request may carry a body. Served by Node, its framing headers tell; asking Hono
 * (`c.req.raw.body`) would build the whole WHATWG Request of every call, a GET's included.
 */
function mayHaveBody(c: Context<AppEnv>): boolean {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return false;
  if ((c.env as Partial<HttpBindings> | undefined)?.incoming === undefined) return true;
  if (c.req.header('transfer-encoding') !== undefined) return true;
  const length = c.req.header('content-length');
  return length !== undefined && length !== '0';
}

/**
 * 413 over 1 MiB (Hono's `bodyLimit`: `Content-Length`, or bytes as they arrive), then the depth.
 * @example app.use(bodyChecks)
 */
export const bodyChecks: MiddlewareHandler<AppEnv> = (c, next) =>
  mayHaveBody(c) ? limit(c, () => checkJsonDepth(c, next)) : next();
