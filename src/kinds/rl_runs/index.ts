import type { RegisteredKind } from '../../engine/run-kind.js';
import { ROUTES } from './contract.js';
import { rlRunKind } from './kind.js';

/** RL runs: the kind and its eight inferred routes. */
export const rlRuns: RegisteredKind = { kind: rlRunKind, routes: ROUTES };
