import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from './env.js';
import type { RouteMatch } from './route-table.js';

/** The route Hono matched (the last non-middleware one): template and operation; null if none. */
export function routeMatchOf(c: Context<AppEnv>): RouteMatch | null {
  const matched = matchedRoutes(c);
  for (let i = matched.length - 1; i >= 0; i--) {
    const r = matched[i]!;
    if (r.method !== 'ALL') return c.get('deps').routes.ofMatched(r);
  }
  return null;
}
