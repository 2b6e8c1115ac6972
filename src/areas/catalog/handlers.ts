/** The catalog (inferred, DESIGN.md section 7): the fixture's lists, and a dataset's inspection. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Catalog } from '../../core/catalog.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import { listPage } from '../../core/paging.js';
import { policiesOf } from '../../engine/world-view.js';
import { getDatasetRoute, catalogListRoutes as routes } from './contract.js';

type Dataset = Catalog['datasets'][number];

/** The catalog is a handful of entries: one page, no cursor. */
const whole = <T extends object, O extends string>(items: T[], object: O) =>
  listPage(items, false, object, () => '');

const catalog = (c: Context<AppEnv>): Catalog => c.get('deps').catalog;

function summary(d: Dataset) {
  return {
    id: d.id,
    object: 'dataset' as const,
    name: d.name,
    robot: d.robot,
    fps: d.fps,
    cameras: d.cameras,
    episode_count: d.episodes.length,
  };
}

export function registerCatalog(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.robots, (c) => c.json(whole(catalog(c).robots, 'robot'), 200));
  app.openapi(routes.tasks, (c) => c.json(whole(catalog(c).tasks, 'task'), 200));
  app.openapi(routes.environments, (c) => {
    const items = catalog(c).environments.map((e) => ({ id: e.id, default: e.default === true }));
    return c.json(whole(items, 'environment'), 200);
  });
  app.openapi(routes.object_sets, (c) => c.json(whole(catalog(c).object_sets, 'object_set'), 200));
  // The catalog's policies, then those the account's succeeded runs produced.
  app.openapi(routes.policies, (c) =>
    c.json(whole(policiesOf(c.get('deps'), c.get('auth').account.id), 'policy'), 200),
  );
  app.openapi(routes.hardware_tiers, (c) =>
    c.json(whole(catalog(c).hardware_tiers, 'hardware_tier'), 200),
  );
  app.openapi(routes.datasets, (c) =>
    c.json(whole(catalog(c).datasets.map(summary), 'dataset'), 200),
  );
  app.openapi(getDatasetRoute, (c) => {
    const id = c.req.valid('param').dataset_id;
    const found = catalog(c).datasets.find((d) => d.id === id);
    if (!found) throw notFound('dataset', id, 'dataset_id');
    return c.json({ ...summary(found), episodes: found.episodes }, 200);
  });
}
