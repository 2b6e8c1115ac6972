import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../api/env.js';
import { apiError } from '../errors.js';
import type { Answer } from './answer.js';
import { checkJsonDepth } from './json-depth.js';
import { renderError } from './render-error.js';

/** DESIGN.md section 3: a body over 1 MiB answers 413 `request_too_large`. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The body checks of every call but GET and HEAD: 413 over 1 MiB, then the JSON depth; then
 * `next`. Hono's `bodyLimit` starts by reading `c.req.raw.body`, which makes the node adapter
 * build a full WHATWG Request (abort signal, body stream) on every POST, even a resume or cancel
 * whose body nobody reads (issue 12: a third of a 404 resume's cost). Served by Node, the framing
 * headers already say all it would learn: with `Content-Length` the limit is that number (as
 * `bodyLimit` itself decides), and with neither it nor `Transfer-Encoding` HTTP/1.1 framing says
 * there is no body. A chunked body, and every call under `app.request()` (no Node request, where
 * a body carries no length), still go through `bodyLimit`, which counts the bytes as they arrive.
 * @example const checkBody = bodyChecks(); return checkBody(c, () => route(c))
 */
export function bodyChecks(): (c: Context<AppEnv>, next: () => Answer) => Answer {
  const streamed = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw apiError('request_too_large');
    },
  });
  return (c, next) => {
    const method = c.req.method;
    // GET and HEAD carry no body.
    if (method === 'GET' || method === 'HEAD') return next();
    if (!servedByNode(c) || c.req.header('transfer-encoding') !== undefined) {
      // Hono's middleware answers what `next` answers, or throws the 413.
      const depth = (() => checkJsonDepth(c, next)) as unknown as () => Promise<void>;
      return streamed(c, depth) as Promise<Response>;
    }
    const length = c.req.header('content-length');
    if (length !== undefined && Number.parseInt(length, 10) > MAX_BODY_BYTES) {
      return renderError(apiError('request_too_large'), c);
    }
    return checkJsonDepth(c, next);
  };
}

function servedByNode(c: Context<AppEnv>): boolean {
  return (c.env as Partial<HttpBindings> | undefined)?.incoming !== undefined;
}
