import type { RegisteredKind } from '../../engine/run-kind.js';
import { twinRoutes } from './contract.js';
import { twinKind } from './kind.js';
import { twinSeed } from './seed.js';

/** Twins: the engine's routes under `twin_id`, the kind, its seeding, and 409 `twin_not_ready`. */
export const twins = {
  kind: twinKind,
  routes: twinRoutes,
  seed: twinSeed,
  errors: {
    twin_not_ready: {
      status: 409,
      message: 'The twin has not succeeded; its files are not ready.',
    },
  },
} satisfies RegisteredKind;
