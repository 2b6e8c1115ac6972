import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../api/env.js';
import type { RouteMatch } from '../runtime/route-table.js';

/**
 * The route template and operation of the request, for fault rules and the journal: from the
 * route Hono matched (the last matched route that is not a middleware), so it costs one map
 * lookup; remembered for the request. Null when no product route serves the path.
 */
export function routeMatchOf(c: Context<AppEnv>): RouteMatch | null {
  const known = c.get('routeMatch');
  if (known !== undefined) return known;
  const routes = c.get('deps').routes;
  const matched = matchedRoutes(c);
  let found: RouteMatch | null = null;
  for (let i = matched.length - 1; i >= 0; i--) {
    const r = matched[i]!;
    if (r.method === 'ALL') continue;
    found = routes.ofHonoRoute(r.method, r.path) ?? null;
    break;
  }
  c.set('routeMatch', found);
  return found;
}
