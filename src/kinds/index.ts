/**
 * Every run kind the engine serves, with its routes: adding a kind is one folder and one line
 * here (DESIGN.md section 7).
 */
import type { RegisteredKind, RunKind } from '../domain/run-kind.js';
import { augmentations } from './augmentations/index.js';
import { evaluations } from './evaluations/index.js';
import { rlRuns } from './rl_runs/index.js';
import { scenarioRuns } from './scenario_runs/index.js';
import { trainingRuns } from './training_runs/index.js';
import { twins } from './twins/index.js';

/** In the order of the API document's section 1 table. */
export const REGISTERED_KINDS: readonly RegisteredKind[] = [
  augmentations,
  trainingRuns,
  twins,
  rlRuns,
  evaluations,
  scenarioRuns,
];

export const RUN_KINDS: Readonly<Record<string, RunKind>> = Object.fromEntries(
  REGISTERED_KINDS.map(({ kind }) => [kind.name, kind]),
);

/** The kind whose id prefix (or legacy prefix) `id` carries; undefined for none. */
export function kindOfId(id: string): RunKind | undefined {
  const prefix = id.slice(0, id.indexOf('_'));
  return REGISTERED_KINDS.find(
    ({ kind }) => kind.prefix === prefix || kind.legacyPrefixes?.includes(prefix),
  )?.kind;
}

export const evaluationKind = RUN_KINDS.evaluation!;

export const twinKind = RUN_KINDS.twin!;
