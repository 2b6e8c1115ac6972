import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { toTimestamp } from '../../core/clock.js';
import { checkCursor } from '../../core/cursor.js';
import type { AppEnv } from '../../core/env.js';
import { apiError, notFound } from '../../core/errors.js';
import { listPage } from '../../core/paging.js';
import { assetAt } from './asset-view.js';
import { builtinScenarios } from './builtin.js';
import {
  createScenarioRoute,
  deleteScenarioRoute,
  getScenarioRoute,
  listScenariosRoute,
  type Scenario,
} from './contract.js';
import { resolveScenario } from './resolve-scenario.js';

/** A built-in scenario or one of the caller's; another account's id reads as unknown (404). */
function findScenario(c: Context<AppEnv>, id: string): Scenario {
  const { store, catalog } = c.get('deps');
  const found =
    builtinScenarios(catalog).find((s) => s.id === id) ??
    store.scenarios.get(c.get('auth').account.id, id);
  if (!found) throw notFound('scenario', id, 'scenario_id');
  return found;
}

/**
 * One page: the built-in scenarios first (catalog order), then the account's own, newest first.
 * `after` is a built-in id (the page continues with the next built-in) or one of the account's.
 */
function scenarioPage(c: Context<AppEnv>, after: string | undefined, limit: number) {
  const { store, catalog } = c.get('deps');
  const accountId = c.get('auth').account.id;
  const builtins = builtinScenarios(catalog);
  const builtinAt = builtins.findIndex((s) => s.id === after);
  if (after !== undefined && builtinAt < 0) {
    checkCursor(after, (id) => store.scenarios.owns(accountId, id), 'a scenario');
    return store.scenarios.list(accountId, { after, limit });
  }
  const head = builtins.slice(builtinAt + 1, builtinAt + 1 + limit);
  const own = store.scenarios.list(accountId, { limit: Math.max(limit - head.length, 1) });
  if (head.length === limit) {
    const hasMore = builtins.length > builtinAt + 1 + limit || own.data.length > 0;
    return { data: head, hasMore };
  }
  return { data: [...head, ...own.data], hasMore: own.hasMore };
}

/** `inferred: false` (--strict) registers only the documented POST. */
export function registerScenarios(app: OpenAPIHono<AppEnv>, inferred: boolean): void {
  app.openapi(createScenarioRoute, (c) => {
    const { store, catalog, ids } = c.get('deps');
    const { account } = c.get('auth');
    const body = c.req.valid('json');
    const scenario = store.tx((): Scenario => {
      // A created environment or object is accepted once its validation has ended (inferred).
      const now = toTimestamp(c.get('now'));
      const resolved = resolveScenario(body, catalog, (id) => {
        const asset = store.userAssets.get(account.id, id);
        return asset && assetAt(asset, now);
      });
      const created: Scenario = {
        id: ids.next('scn', account.id, c.get('now')),
        object: 'scenario',
        ...resolved,
        builtin: false,
        created_at: toTimestamp(c.get('now')),
      };
      store.scenarios.insert(account.id, created);
      return created;
    });
    c.set('resourceId', scenario.id);
    return c.json(scenario, 201);
  });

  if (!inferred) return;

  app.openapi(listScenariosRoute, (c) => {
    const { after, limit } = c.req.valid('query');
    const page = scenarioPage(c, after, limit);
    const body = listPage(page.data, page.hasMore, 'scenario', (s) => s.id);
    return c.json(body, 200);
  });

  app.openapi(getScenarioRoute, (c) =>
    c.json(findScenario(c, c.req.valid('param').scenario_id), 200),
  );

  app.openapi(deleteScenarioRoute, (c) => {
    const { store } = c.get('deps');
    const { scenario_id } = c.req.valid('param');
    // 409, not 403: no key or scope could allow it; the scenario's kind forbids it (our inference).
    if (findScenario(c, scenario_id).builtin) {
      throw apiError('builtin_scenario', { param: 'scenario_id' });
    }
    store.scenarios.remove(c.get('auth').account.id, scenario_id);
    return c.json({ id: scenario_id, object: 'scenario' as const, deleted: true }, 200);
  });
}
