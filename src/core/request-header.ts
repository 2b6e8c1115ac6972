import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/**
 * A request header that Node joins as `Headers` joins it (any but the few Node keeps the first of,
 * such as `Authorization` and `Content-Length`), by its lower-case name. Where Node serves the
 * call it is read from Node's parsed headers, which is where @hono/node-server's `Headers` reads
 * such a header too, without the steps around it (about 700 instructions a look); under
 * `app.request()`, from Hono's request.
 * @example joinedHeader(c, 'idempotency-key')
 */
export function joinedHeader(c: Context<AppEnv>, name: Lowercase<string>): string | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return typeof value === 'string' ? value : undefined;
}
