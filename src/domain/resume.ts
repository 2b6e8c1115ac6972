import { apiError } from '../errors.js';
import type { EvaluationState } from './records.js';

/**
 * API document section 3.1: only a `failed` or `canceled` run goes back to `queued`. Anything
 * else, or an error marked `resumable: false`, is 409 `not_resumable` (DESIGN.md section 3).
 */
export function assertResumable(state: EvaluationState): void {
  if (state.status !== 'failed' && state.status !== 'canceled') {
    throw apiError('not_resumable', {
      message: `Only a failed or canceled run can be resumed; this run is ${state.status}.`,
    });
  }
  if (state.error && !state.error.resumable) {
    throw apiError('not_resumable', {
      message: `This run failed with '${state.error.code}', which is not resumable.`,
    });
  }
}
