/** The part of a `@hono/zod-openapi` registry definition the table reads. */
export interface RouteDefinition {
  type: string;
  route?: { method: string; path: string; operationId?: string };
}

export interface RouteMatch {
  /** The route template, as in the OpenAPI document: `/v1/evaluations/{run_id}/resume`. */
  route: string;
  operation: string | null;
}

interface Entry extends RouteMatch {
  method: string;
  pattern: RegExp;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/**
 * Maps a request's method and path to its route template and operation id, for fault rules and
 * the request journal. Built from the app's OpenAPI registry after every route is registered.
 */
const CACHE_LIMIT = 4096;

export class RouteTable {
  private entries: Entry[] = [];
  /** Recent answers by `METHOD path`: every journaled request resolves its route once. */
  private cache = new Map<string, RouteMatch | null>();
  /** By Hono's own route, `METHOD /v1/evaluations/:run_id/resume`: no path matching at all. */
  private byHonoRoute = new Map<string, RouteMatch>();

  add(method: string, route: string, operation: string | null): void {
    const source = route
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : escapeRegExp(part)))
      .join('');
    this.cache.clear();
    const entry = {
      method: method.toUpperCase(),
      route,
      operation,
      pattern: new RegExp(`^${source}$`),
    };
    this.entries.push(entry);
    const hono = route.replace(/\{([^}]+)\}/g, ':$1');
    if (!this.byHonoRoute.has(`${entry.method} ${hono}`))
      this.byHonoRoute.set(`${entry.method} ${hono}`, entry);
  }

  /**
   * The match of the route Hono already matched (its method and `:param` path), as `resolve`
   * answers for the same request; undefined when no product route has that path. One lookup
   * instead of a scan: a path with a fresh id each time (a resume per run) misses `resolve`'s
   * cache and tries every route's pattern.
   */
  ofHonoRoute(method: string, honoPath: string): RouteMatch | undefined {
    return this.byHonoRoute.get(`${method} ${honoPath}`);
  }

  /** Every product route of an OpenAPI registry's definitions (the control API's are skipped). */
  addFrom(definitions: readonly RouteDefinition[]): void {
    for (const def of definitions) {
      const route = def.type === 'route' ? def.route : undefined;
      if (!route || route.path.startsWith('/_control')) continue;
      this.add(route.method, route.path, route.operationId ?? null);
    }
  }

  /** HEAD resolves to the GET route, as Hono serves it. */
  resolve(method: string, path: string): RouteMatch | null {
    const m = method === 'HEAD' ? 'GET' : method;
    const key = `${m} ${path}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    let found: RouteMatch | null = null;
    for (const e of this.entries) {
      if (e.method === m && e.pattern.test(path)) {
        found = e;
        break;
      }
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, found);
    return found;
  }
}
