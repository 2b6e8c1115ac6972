import { apiError, MESSAGES } from '../core/errors.js';
import type { RunState } from './records.js';

/** API document 3.1: only a failed or canceled run, its error resumable, resumes; else 409. */
export function assertResumable(state: RunState): void {
  if (state.status !== 'failed' && state.status !== 'canceled')
    throw apiError('not_resumable', { message: MESSAGES.notResumableStatus(state.status) });
  if (state.error && !state.error.resumable)
    throw apiError('not_resumable', { message: MESSAGES.notResumableError(state.error.code) });
}
