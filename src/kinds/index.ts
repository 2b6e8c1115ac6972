/**
 * Every run kind the engine serves, in the API document's section 1 order: adding a kind is a
 * folder and a line here (docs/development.md); every list of kinds derives from this one.
 */
import type { RegisteredKind } from '../engine/run-kind.js';
import { augmentations } from './augmentations/index.js';
import { evaluations } from './evaluations/index.js';
import { rlRuns } from './rl_runs/index.js';
import { scenarioRuns } from './scenario_runs/index.js';
import { trainingRuns } from './training_runs/index.js';
import { twins } from './twins/index.js';

export const REGISTERED_KINDS = [
  augmentations,
  trainingRuns,
  twins,
  rlRuns,
  evaluations,
  scenarioRuns,
] as const satisfies readonly RegisteredKind[];
