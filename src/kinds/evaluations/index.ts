import type { RegisteredKind } from '../../domain/run-kind.js';
import { evaluationKind } from './kind.js';
import { evaluationRoutes } from './sim-runs.js';

/** Evaluations: the documented routes and the kind. */
export const evaluations: RegisteredKind = {
  kind: evaluationKind as never,
  routes: evaluationRoutes,
};
