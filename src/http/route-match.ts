import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../api/env.js';
import type { RouteMatch } from '../runtime/route-table.js';

/**
 * The route template and operation of the request, for fault rules and the journal: those of
 * the route Hono matched (the last matched route that is not a middleware); null when no
 * product route serves the path.
 */
export function routeMatchOf(c: Context<AppEnv>): RouteMatch | null {
  const matched = matchedRoutes(c);
  for (let i = matched.length - 1; i >= 0; i--) {
    const r = matched[i]!;
    if (r.method !== 'ALL') return c.get('deps').routes.ofHonoRoute(r.method, r.path) ?? null;
  }
  return null;
}
