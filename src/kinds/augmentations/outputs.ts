/** What an augmentation generates (inferred): dataset episodes varied, drawn from the request. */
import { canonicalJson, sha256Hex } from '../../core/canonical-json.js';
import type { Catalog } from '../../core/catalog.js';
import { sha256 } from '../../core/sha256.js';
import { draw } from '../draw.js';
import type { AugmentationRequest } from './request.js';

/** The request's fingerprint: every draw starts from it. */
export function seedOf(request: AugmentationRequest): string {
  return sha256Hex(canonicalJson({ dataset: request.dataset, config: request.config }));
}

const pad = (i: number) => String(i).padStart(4, '0');

/** Episode `index` (1-based) of the augmentation. */
export function episodeAt(
  request: AugmentationRequest,
  dataset: Catalog['datasets'][number],
  seed: string,
  index: number,
) {
  const source = dataset.episodes[(index - 1) % dataset.episodes.length]!;
  // Each variation a factor in [0.5, 1.5), rounded to keep the JSON short.
  const variation = Object.fromEntries(
    request.config.variations.map((v) => [
      v,
      Math.round((0.5 + draw(seed, `${v}:${index}`)) * 1000) / 1000,
    ]),
  );
  const duration = Math.round(source.duration_s * (0.9 + 0.2 * draw(seed, `t:${index}`)) * 10) / 10;
  return {
    index,
    source_episode: source.index,
    cameras: request.config.cameras,
    frames: Math.round(duration * dataset.fps),
    duration_s: duration,
    variation,
    path: `episodes/${pad(index)}`,
  };
}

export function episodesOf(
  request: AugmentationRequest,
  dataset: Catalog['datasets'][number],
  count: number,
) {
  const seed = seedOf(request);
  return Array.from({ length: count }, (_, i) => episodeAt(request, dataset, seed, i + 1));
}

/** The stand-in video of one camera of one episode: 512 bytes chained from the fingerprint. */
export function cameraBytes(seed: string, index: number, camera: string): Buffer {
  const parts: Buffer[] = [];
  let block = sha256(`${seed}:video:${index}:${camera}`);
  for (let i = 0; i < 16; i++) {
    parts.push(block);
    block = sha256(block);
  }
  return Buffer.concat(parts);
}
