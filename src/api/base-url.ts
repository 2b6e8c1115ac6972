import type { Context } from 'hono';
import { boundedMemo } from '../domain/bounded-memo.js';

/** The origin of a URL's scheme and authority, parsed once per distinct one (a few per run). */
const originOf = boundedMemo(
  64,
  (schemeAndAuthority: string) => new URL(schemeAndAuthority).origin,
);

/**
 * `{base_url}` of the API document: the origin the caller reached this emulator at. Only the
 * part before the path decides an origin, so that part is parsed, once per distinct one, rather
 * than the whole URL of every run answer (a new id in each path).
 */
export function baseUrl(c: Context): string {
  const url = c.req.url;
  const authority = url.indexOf('//') + 2;
  const path = url.indexOf('/', authority);
  return originOf(path === -1 ? url : url.slice(0, path));
}
