import type { Context } from 'hono';

/** `{base_url}` of the API document: the origin the caller reached this emulator at. */
export function baseUrl(c: Context): string {
  return new URL(c.req.url).origin;
}
