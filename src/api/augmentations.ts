/**
 * `GET /v1/augmentations/{run_id}/episodes` (inferred, DESIGN.md section 7): the episodes an
 * augmentation has generated so far, as its clock has them. The rest of the area is the run
 * engine's generic routes.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { listPage } from '../domain/paging.js';
import { deriveState } from '../domain/run-state.js';
import { notFound } from '../errors.js';
import { listAugmentationEpisodesRoute } from '../kinds/augmentations/contract.js';
import { episodesOf } from '../kinds/augmentations/index.js';
import type { AugmentationRequest } from '../kinds/augmentations/request.js';

export function registerAugmentationEpisodes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(listAugmentationEpisodesRoute, (c) => {
    const { run_id } = c.req.valid('param');
    const deps = c.get('deps');
    const run = deps.store.runs.get(c.get('auth').account.id, run_id);
    if (run?.kind !== 'augmentation') throw notFound('augmentation', run_id, 'run_id');
    const request = run.request as AugmentationRequest;
    const dataset = deps.catalog.datasets.find((d) => d.id === request.dataset);
    const done = deriveState(run.state, c.get('now')).episodes?.done ?? 0;
    const episodes = dataset ? episodesOf(request, dataset, done) : [];
    return c.json(
      listPage(episodes, false, 'augmentation_episode', (e) => String(e.index)),
      200,
    );
  });
}
