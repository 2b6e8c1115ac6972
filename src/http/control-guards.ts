/** What every control call passes first (DESIGN.md section 5): the origin check, then the token. */
import { timingSafeEqual } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../core/env.js';
import { apiError } from '../core/errors.js';

/** Documentation, open without the token so `/_control/docs` loads and its Authorize takes it. */
const OPEN_DOCS: readonly string[] = ['/_control/docs', '/_control/openapi.json'];
/** The inspector's page and files hold no data: they load, then ask for the token (issue 30). */
const OPEN_PREFIX = '/_control/ui';

function openPage(path: string): boolean {
  return OPEN_DOCS.includes(path) || path === OPEN_PREFIX || path.startsWith(`${OPEN_PREFIX}/`);
}

/** `--control-token`: the control API then needs `X-Control-Token` (DESIGN.md section 5). */
export function controlToken(token: string | null) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const docs = (c.req.method === 'GET' || c.req.method === 'HEAD') && openPage(c.req.path);
    if (token !== null && !docs) {
      const given = Buffer.from(c.req.header('x-control-token') ?? '');
      const expected = Buffer.from(token);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw apiError('control_unauthorized');
      }
    }
    await next();
  });
}

/**
 * Refuses a browser request from another web page (inferred), which could otherwise reset the world
 * or revoke keys. The emulator's own origin, `--control-allow-origin` and requests without `Origin`
 * (curl, SDKs) pass, unless `Sec-Fetch-Site` says cross-site.
 */
export function sameOrigin(allowed: readonly string[]) {
  const any = allowed.includes('*');
  return createMiddleware<AppEnv>(async (c, next) => {
    const origin = c.req.header('origin')?.trim().toLowerCase();
    const host = c.req.header('host')?.toLowerCase();
    const own = host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
    const foreign = origin
      ? !allowed.includes(origin) && !own
      : c.req.header('sec-fetch-site')?.toLowerCase() === 'cross-site';
    if (foreign && !any) throw apiError('cross_origin_forbidden');
    await next();
  });
}
