import type { RegisteredKind } from '../../engine/run-kind.js';
import { ROUTES } from './contract.js';
import { scenarioRunKind } from './kind.js';

/** Scenario runs: the shared run routes and the kind. */
export const scenarioRuns: RegisteredKind = { kind: scenarioRunKind, routes: ROUTES };
