/**
 * Every run kind the engine serves: adding a kind is one folder and one line here
 * (docs/development.md, "Adding a kind"). Every list of kinds derives from this one
 * (`domain/kind-registry.ts`), in this order: the API document's section 1 table.
 */
import type { RegisteredKind } from '../domain/run-kind.js';
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
