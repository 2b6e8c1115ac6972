import { apiError } from '../errors.js';
import type { EvaluationState } from './records.js';

/**
 * The state a resumed run starts from (API document section 3.1: `failed` or `canceled` ->
 * `queued`). Anything else, or an error marked `resumable: false`, is 409 `not_resumable`
 * (DESIGN.md section 3).
 */
export function resumedState(state: EvaluationState, serviceVersion: string): EvaluationState {
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
  return {
    ...state,
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    episodes: state.episodes && { done: 0, total: state.episodes.total },
    error: null,
    result: null,
    download: null,
    service_version: serviceVersion,
    started_at: null,
    completed_at: null,
  };
}
