/** Every run kind the engine serves: adding a kind is one folder and one line here. */
import type { RunKind } from '../domain/run-kind.js';
import { evaluationKind } from './evaluations/kind.js';

export const RUN_KINDS: Readonly<Record<string, RunKind>> = {
  evaluation: evaluationKind,
};
export { evaluationKind };
