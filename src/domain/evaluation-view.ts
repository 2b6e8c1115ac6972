import type { Evaluation } from '../contract/evaluations.js';
import type { EvaluationRecord, EvaluationState } from './records.js';

/**
 * The Evaluation body (API document section 2.2) of a record. Every field is present, null where
 * there is nothing to say, so SDKs see one stable shape. `links` point at this emulator.
 */
export function toEvaluation(
  record: Pick<EvaluationRecord, 'id' | 'createdAt' | 'request' | 'state'>,
  baseUrl: string,
): Evaluation {
  const { state, request } = record;
  return {
    id: record.id,
    object: 'evaluation',
    status: state.status,
    phase: state.phase,
    progress: state.progress,
    status_message: state.status_message,
    episodes: state.episodes,
    error: state.error,
    spec: request.spec,
    service_version: state.service_version,
    options: request.options,
    label: request.label,
    result: state.result,
    download: state.download && {
      ...state.download,
      // DESIGN.md section 3: this API's archive path, or a signed link that needs no key.
      url:
        state.download.requires_auth || !state.download_token
          ? state.download.url || `${baseUrl}/v1/evaluations/${record.id}/archive`
          : `${baseUrl}/_downloads/${state.download_token}`,
    },
    tokens: state.tokens,
    webhook_metadata: request.webhook_metadata,
    created_at: record.createdAt,
    started_at: state.started_at,
    completed_at: state.completed_at,
    links: {
      self: `${baseUrl}/v1/evaluations/${record.id}`,
      logs: `${baseUrl}/v1/sim_runs/${record.id}/logs`,
      files: `${baseUrl}/v1/sim_runs/${record.id}/files`,
      archive: `${baseUrl}/v1/evaluations/${record.id}/archive`,
    },
  };
}

/** The state fields an Evaluation body shows; the schedule and the plan stay internal. */
export function shownState(state: EvaluationState): EvaluationState {
  return {
    status: state.status,
    phase: state.phase,
    progress: state.progress,
    status_message: state.status_message,
    episodes: state.episodes,
    error: state.error,
    result: state.result,
    download: state.download,
    tokens: state.tokens,
    service_version: state.service_version,
    started_at: state.started_at,
    completed_at: state.completed_at,
    ...(state.download_token === undefined ? {} : { download_token: state.download_token }),
  };
}
