/** Twins seeded by the control API stand for a default source's scene and keep their listing. */
import type { RunState } from '../../domain/records.js';
import { seededFailure } from '../../domain/run-failure.js';
import { SCENE_PATH } from './outputs.js';
import type { TwinRequest } from './request.js';

/** Where a seeded twin's scene comes from: a dataset episode and its part count. */
export interface TwinSource {
  dataset: string;
  episode: number;
  parts: number;
}

/** The stored request of a seeded twin whose listing has `fileCount` files. */
export function seededTwinRequest(source: TwinSource, fileCount: number): TwinRequest {
  return {
    dataset: source.dataset,
    episode: source.episode,
    hardware_tier: 'gpu-a10',
    parts: source.parts,
    options: {},
    label: null,
    webhook_metadata: null,
    seeded_file_count: fileCount,
  };
}

/**
 * A twin seeded in a fixed state at `at` (no attempt): started and ended, as its status says, when
 * seeded; a failed one failed `interrupted`, which a resume can retry.
 */
export function seededTwinState(
  status: RunState['status'],
  at: string,
  source: TwinSource,
): RunState {
  const { parts } = source;
  const started = status !== 'queued';
  const ended = status === 'succeeded' || status === 'failed' || status === 'canceled';
  return {
    status,
    phase: null,
    progress: status === 'succeeded' ? 1 : 0,
    status_message: null,
    episodes: { done: status === 'succeeded' ? parts : 0, total: parts },
    error: status === 'failed' ? seededFailure() : null,
    result:
      status === 'succeeded'
        ? {
            scene: { path: SCENE_PATH, parts },
            dataset: source.dataset,
            episode: source.episode,
          }
        : null,
    download: null,
    tokens: { charged: 0, refunded: 0 },
    service_version: null,
    started_at: started ? at : null,
    completed_at: ended ? at : null,
    given_files: true,
  };
}
