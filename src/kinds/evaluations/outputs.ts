/**
 * What a finished evaluation produces (DESIGN.md section 4 "Result" and "Archive"), from the spec
 * and outcome only: the same spec gives the same `manifest_hash`, `run_id` and `run_hash`.
 */

import { canonicalJson, canonicalJsonFile, sha256Hex } from '../../core/canonical-json.js';
import { wilsonInterval } from '../../core/wilson-interval.js';
import { draw } from '../draw.js';
import type { EvaluationRequest } from './request.js';

/** The SDK and simulator versions the emulated service reports. */
const VERSIONS = { sdk: '1.0.0', simulator: '1.0.0' } as const;

interface Manifest {
  spec: EvaluationRequest['spec'];
  files: { path: string; sha256: string }[];
  versions: typeof VERSIONS;
}

export function manifestFor(spec: EvaluationRequest['spec']): { manifest: Manifest; hash: string } {
  const manifest: Manifest = {
    spec,
    files: [{ path: spec.path, sha256: sha256Hex(canonicalJson(spec)) }],
    versions: VERSIONS,
  };
  return { manifest, hash: sha256Hex(canonicalJson(manifest)) };
}

export function evaluatorIds(spec: EvaluationRequest['spec']): string[] {
  const declared = Array.isArray(spec.evaluators)
    ? spec.evaluators.filter((e): e is string => typeof e === 'string')
    : [];
  return ['success_rate', ...declared.filter((e) => e !== 'success_rate')];
}

/** Episode `index` (1-based) of a run of this manifest at this success rate. */
export function episodeAt(
  manifestHash: string,
  index: number,
  successRate: number,
  evaluators: string[],
) {
  const success = draw(manifestHash, `episode:${index}`) < successRate;
  const evals: Record<string, boolean> = {};
  for (const id of evaluators) {
    evals[id] = id === 'success_rate' ? success : draw(manifestHash, `${id}:${index}`) < 0.1;
  }
  const r = draw(manifestHash, `return:${index}`);
  return {
    index,
    success,
    steps: 50 + Math.floor(draw(manifestHash, `steps:${index}`) * 200),
    return: Math.round((success ? 0.6 + 0.4 * r : 0.4 * r) * 10000) / 10000,
    evaluators: evals,
  };
}

type Episode = ReturnType<typeof episodeAt>;

function scorecardMetrics(episodes: Episode[], evaluators: string[]) {
  const n = episodes.length;
  return evaluators.map((id) => {
    const k = episodes.filter((e) => e.evaluators[id]).length;
    return {
      id,
      version: VERSIONS.sdk,
      value: n === 0 ? null : Math.round((k / n) * 1e6) / 1e6,
      interval: wilsonInterval(k, n),
      n,
    };
  });
}

/** `result` (API document section 2.4) of a run whose episodes all ran. */
export function resultOf(
  manifestHash: string,
  episodes: Episode[],
  evaluators: string[],
  verified: boolean,
) {
  const metrics = scorecardMetrics(episodes, evaluators);
  return {
    verified,
    run_id: manifestHash.slice(0, 12),
    manifest_hash: manifestHash,
    run_hash: sha256Hex(canonicalJson({ episodes, metrics })),
    // Every episode is re-derived from the manifest alone, so a rerun gives the same outputs.
    determinism_verified: true,
    metrics,
  };
}

/** The files of the run directory `<id>/`, for `buildArchive()`. */
export function archiveEntries(
  manifest: Manifest,
  result: ReturnType<typeof resultOf>,
  episodes: Episode[],
  logLines: string[],
) {
  return [
    {
      path: 'manifest.json',
      content: canonicalJsonFile({
        ...manifest,
        manifest_hash: result.manifest_hash,
        run_id: result.run_id,
      }),
    },
    // The result but its `manifest_hash`, which `manifest.json` holds.
    { path: 'scorecard.json', content: canonicalJsonFile({ ...result, manifest_hash: undefined }) },
    ...episodes.map((e) => ({
      path: `episodes/${String(e.index).padStart(4, '0')}.json`,
      content: canonicalJsonFile(e),
    })),
    { path: 'logs/sdk.log', content: logLines.map((l) => `${l}\n`).join('') },
  ];
}
