import type { RegisteredKind } from '../../engine/run-kind.js';
import { evaluationKind } from './kind.js';
import { evaluationSeed } from './seed.js';
import { evaluationRoutes } from './sim-runs.js';

/** Evaluations: the documented routes (API document sections 4.1, 4.4, 4.5), the kind, its seeding. */
export const evaluations = {
  kind: evaluationKind,
  routes: evaluationRoutes,
  seed: evaluationSeed,
} satisfies RegisteredKind;
