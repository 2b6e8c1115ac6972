/** What a twin rebuilds (inferred): an episode's scene in parts, drawn from dataset and episode. */
import { canonicalJson, sha256Hex } from '../../core/canonical-json.js';
import type { Catalog } from '../../core/catalog.js';
import { draw } from '../draw.js';
import type { TwinRequest } from './request.js';

export type DatasetEntry = Catalog['datasets'][number];
export type EpisodeEntry = DatasetEntry['episodes'][number];

const SECONDS_PER_PART = 5;

export const twinPartsOf = (episode: EpisodeEntry) =>
  Math.max(2, Math.ceil(episode.duration_s / SECONDS_PER_PART));

/** Part `index` (0-based) as the archive and the listing name it. */
export const partPath = (index: number) => `scene/part_${String(index).padStart(5, '0')}.usd`;

export const SCENE_PATH = 'scene/scene.usda';

/** The archive holds the scene, each part, `twin.json` and the log. */
export const archiveFileCount = (parts: number) => parts + 3;

/** The request's fingerprint: every draw starts from it. */
export function seedOf(request: Pick<TwinRequest, 'dataset' | 'episode'>): string {
  return sha256Hex(canonicalJson({ dataset: request.dataset, episode: request.episode }));
}

/** The size of part `index` (0-based), in meters, rounded to keep the files short. */
function extentOf(seed: string, index: number): [number, number, number] {
  const axis = (a: string) => Math.round((0.05 + 0.45 * draw(seed, `${a}:${index}`)) * 1000) / 1000;
  return [axis('x'), axis('y'), axis('z')];
}

/** The content of part `index` (0-based): a small USD layer with a drawn extent. */
export function partContent(seed: string, index: number): string {
  const [x, y, z] = extentOf(seed, index);
  return [
    '#usda 1.0',
    `def Xform "part_${index}"`,
    '{',
    `    float3[] extent = [(0, 0, 0), (${x}, ${y}, ${z})]`,
    `    custom string fingerprint = "${seed.slice(0, 16)}"`,
    '}',
    '',
  ].join('\n');
}

/** The root layer: it references every part. */
export function sceneContent(request: TwinRequest, parts: number): string {
  return [
    '#usda 1.0',
    '(',
    `    doc = "Twin of ${request.dataset} episode ${request.episode}"`,
    `    subLayers = [${Array.from({ length: parts }, (_, i) => `@./${partPath(i).slice(6)}@`).join(', ')}]`,
    ')',
    '',
  ].join('\n');
}
