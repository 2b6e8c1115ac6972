import { evaluationRoutes } from '../../contract/sim-runs.js';
import type { RegisteredKind } from '../../domain/run-kind.js';
import { evaluationKind } from './kind.js';

/** Evaluations: the documented routes and the kind. */
export const evaluations: RegisteredKind = {
  kind: evaluationKind as never,
  routes: evaluationRoutes,
};
