import { listPage } from '../../core/paging.js';
import type { RegisteredKind } from '../../engine/run-kind.js';
import { augmentationRoutes, listAugmentationEpisodesRoute } from './contract.js';
import { augmentationKind } from './kind.js';
import { episodesOf } from './outputs.js';
import type { AugmentationRequest } from './request.js';

/** Augmentations: the shared run routes, the kind, and the episodes generated so far. */
export const augmentations: RegisteredKind = {
  kind: augmentationKind,
  routes: augmentationRoutes,
  reads: [
    {
      route: listAugmentationEpisodesRoute,
      read(run, state, catalog) {
        const request = run.request as AugmentationRequest;
        const dataset = catalog.datasets.find((d) => d.id === request.dataset);
        const episodes = dataset ? episodesOf(request, dataset, state.episodes?.done ?? 0) : [];
        return listPage(episodes, false, 'augmentation_episode', (e) => String(e.index));
      },
    },
  ],
};
