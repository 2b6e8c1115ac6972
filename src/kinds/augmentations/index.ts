import type { RegisteredKind } from '../../domain/run-kind.js';
import { augmentationRoutes } from './contract.js';
import { augmentationKind } from './kind.js';

/** Augmentations: the shared run routes and the kind. */
export const augmentations: RegisteredKind = {
  kind: augmentationKind as never,
  routes: augmentationRoutes,
};
export { episodesOf } from './outputs.js';
