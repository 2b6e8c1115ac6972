import type { RegisteredKind } from '../../engine/run-kind.js';
import { ROUTES } from './contract.js';
import { trainingRunKind } from './kind.js';

/** Training runs: the kind and its eight inferred routes. */
export const trainingRuns: RegisteredKind = { kind: trainingRunKind, routes: ROUTES };
