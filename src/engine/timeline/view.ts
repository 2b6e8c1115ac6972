import type { RunRecord, RunState } from '../records.js';
import type { RunKind } from '../run-kind.js';

/** The URLs of a run of this kind on the emulator at `baseUrl`. */
export function runLinks(kind: RunKind, id: string, baseUrl: string): Record<string, string> {
  const under = `${baseUrl}/v1/${kind.logsAndFilesUnder ?? kind.collection}/${id}`;
  return {
    self: `${baseUrl}/v1/${kind.collection}/${id}`,
    logs: `${under}/logs`,
    files: `${under}/files`,
    archive: `${baseUrl}/v1/${kind.collection}/${id}/archive`,
  };
}

/**
 * The body of a run of any kind (API document section 2.2; for other kinds DESIGN.md section 7):
 * every field present, null where there is nothing to say, the kind's own after `status_message`.
 */
export function toRunBody(
  kind: RunKind,
  record: Pick<RunRecord, 'id' | 'createdAt' | 'request' | 'state'>,
  baseUrl: string,
): Record<string, unknown> & { id: string; object: string; status: string } {
  const { state, request } = record;
  const links = runLinks(kind, record.id, baseUrl);
  return {
    id: record.id,
    object: kind.name,
    status: state.status,
    phase: state.phase,
    progress: state.progress,
    status_message: state.status_message,
    ...kind.fields(record as RunRecord, state),
    error: state.error,
    service_version: state.service_version,
    options: request.options,
    label: request.label,
    result: state.result,
    download: state.download && {
      ...state.download,
      // DESIGN.md section 3: this API's archive path, or a signed link that needs no key.
      url:
        state.download.requires_auth || !state.download_token
          ? state.download.url || links.archive!
          : `${baseUrl}/_downloads/${state.download_token}`,
    },
    tokens: state.tokens,
    webhook_metadata: request.webhook_metadata,
    created_at: record.createdAt,
    started_at: state.started_at,
    completed_at: state.completed_at,
    links,
  };
}

/** The state fields a run's body shows; the schedule and the plan stay internal. */
export function shownState(state: RunState): RunState {
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
