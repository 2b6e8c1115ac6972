import { conflictOf } from './error-answers.js';

/** The part of a `@hono/zod-openapi` registry definition the table reads. */
export interface RouteDefinition {
  type: string;
  route?: {
    method: string;
    path: string;
    operationId?: string;
    /** Each status's answer; a 409's `x-error-codes` names its conflict (`conflictOf`). */
    responses?: Readonly<Record<string, object | undefined>>;
  };
}

export interface RouteMatch {
  /** The route template, as in the OpenAPI document: `/v1/<collection>/{run_id}/resume`. */
  route: string;
  operation: string | null;
  /** The state conflict the route's 409 names first (`not_resumable`); null for none. */
  conflict: string | null;
}

/** The route Hono matched as template and operation id, for fault rules and the journal. */
export class RouteTable {
  /** By Hono's own route, `METHOD /v1/<collection>/:run_id/resume`. */
  private byHonoRoute = new Map<string, RouteMatch>();
  private readonly byMatched = new WeakMap<object, RouteMatch | null>();

  add(method: string, route: string, operation: string | null, conflict: string | null = null) {
    const key = `${method.toUpperCase()} ${route.replace(/\{([^}]+)\}/g, ':$1')}`;
    if (!this.byHonoRoute.has(key)) this.byHonoRoute.set(key, { route, operation, conflict });
  }

  /** Every product route of an OpenAPI registry's definitions (the control API's are skipped). */
  addFrom(definitions: readonly RouteDefinition[]): void {
    for (const def of definitions) {
      const route = def.type === 'route' ? def.route : undefined;
      if (!route || route.path.startsWith('/_control')) continue;
      this.add(route.method, route.path, route.operationId ?? null, conflictOf(route.responses));
    }
  }

  /** Every operation id of the product routes, sorted. */
  operations(): string[] {
    const ops = [...this.byHonoRoute.values()].flatMap((m) => (m.operation ? [m.operation] : []));
    return [...new Set(ops)].sort();
  }

  /** The template and operation of the route Hono matched; undefined for no product route. */
  ofHonoRoute(method: string, honoPath: string): RouteMatch | undefined {
    return this.byHonoRoute.get(`${method} ${honoPath}`);
  }

  /** `ofHonoRoute` of a route Hono matched, by the route itself: no key string made a call. */
  ofMatched(route: { method: string; path: string }): RouteMatch | null {
    let found = this.byMatched.get(route);
    if (found === undefined) {
      found = this.ofHonoRoute(route.method, route.path) ?? null;
      this.byMatched.set(route, found);
    }
    return found;
  }
}
