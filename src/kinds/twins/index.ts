import type { RegisteredKind, RunKind } from '../../domain/run-kind.js';
import { twinRoutes } from './contract.js';
import { twinKind } from './kind.js';
import { twinSeed } from './seed.js';

/**
 * Twins: the engine's routes under `twin_id` with the documented file listing, the kind, its
 * control seeding, and the file listing's own 409 (API document sections 4.6 and 7).
 */
export const twins = {
  kind: twinKind as unknown as RunKind,
  routes: twinRoutes,
  seed: twinSeed,
  errors: {
    twin_not_ready: {
      status: 409,
      message: 'The twin has not succeeded; its files are not ready.',
    },
  },
} satisfies RegisteredKind;
