import { augmentationRoutes } from '../../contract/augmentations.js';
import type { RegisteredKind } from '../../domain/run-kind.js';
import { augmentationKind } from './kind.js';

/** Augmentations: the shared run routes and the kind. */
export const augmentations: RegisteredKind = {
  kind: augmentationKind as never,
  routes: augmentationRoutes,
};
export { episodesOf } from './outputs.js';
