import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { createScenarioRoute, type Scenario } from '../contract/scenarios.js';
import { resolveScenario } from '../domain/resolve-scenario.js';
import { toTimestamp } from '../runtime/clock.js';

export function registerScenarios(app: OpenAPIHono<AppEnv>): void {
  app.openapi(createScenarioRoute, (c) => {
    const { store, catalog, ids } = c.get('deps');
    const { account } = c.get('auth');
    const body = c.req.valid('json');
    const scenario = store.tx((): Scenario => {
      const resolved = resolveScenario(body, catalog, (id) => store.userAssets.get(account.id, id));
      const created: Scenario = {
        id: ids.next('scn', account.id, c.get('now')),
        object: 'scenario',
        ...resolved,
        created_at: toTimestamp(c.get('now')),
      };
      store.scenarios.insert(account.id, created);
      return created;
    });
    return c.json(scenario, 201);
  });
}
