import type { RegisteredKind } from '../../domain/run-kind.js';
import { twinRoutes } from './contract.js';
import { twinKind } from './kind.js';

/** Twins: the engine's routes under `twin_id`, the documented file listing, and the kind. */
export const twins: RegisteredKind = {
  kind: twinKind as never,
  routes: twinRoutes,
};
