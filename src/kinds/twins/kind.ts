/** Twins as a run kind: extract an episode, rebuild its scene part by part, validate, package. */

import type { z } from '@hono/zod-openapi';
import { jsonFile } from '../../core/canonical-json.js';
import { invalidParam, MESSAGES } from '../../core/errors.js';
import { defineKind } from '../../engine/define-kind.js';
import type { KindPlan } from '../../engine/kind-plan.js';
import { parseRunOptions, timelineOf } from '../../engine/run-options.js';
import { catalogDataset, hardwareTierOf, sharedRequestFields } from '../../engine/run-request.js';
import { ADDRESS, type TwinResult } from './contract.js';
import {
  archiveFileCount,
  type DatasetEntry,
  type EpisodeEntry,
  partContent,
  partPath,
  SCENE_PATH,
  sceneContent,
  seedOf,
  twinPartsOf,
} from './outputs.js';
import type { TwinRequest } from './request.js';

/** Its timeline and failure codes, stated once. */
const PLAN = {
  timeline: {
    phases: ['extracting', 'reconstructing', 'validating', 'packaging'],
    stepPhase: 'reconstructing',
    stepNoun: 'part',
    // A 3-part twin is queued 1 s and built in 4 s, as the twin seed route describes.
    defaults: { queue: 1, extracting: 1, part: 0.5, validating: 1, packaging: 0.5 },
  },
  failures: {
    messages: {
      episode_unreadable: 'The dataset episode could not be read.',
      reconstruction_failed: 'Reconstructing a scene part failed.',
    },
    invalidInput: { code: 'episode_unreadable', param: 'episode' },
    failedStep: { code: 'reconstruction_failed', location: (step: number) => partPath(step - 1) },
  },
} satisfies KindPlan;

const DEFAULT_TWIN_TIER = 'gpu-a10';

export interface Context {
  request: TwinRequest;
  /** Undefined only for a seeded twin's default source missing from another catalog. */
  dataset: DatasetEntry | undefined;
  episode: EpisodeEntry | undefined;
  seed: string;
}

type Result = z.infer<typeof TwinResult>;

export const twinKind = defineKind<TwinRequest, Context, Result>({
  ...ADDRESS,
  ...PLAN,
  prepare(body, world) {
    const dataset = catalogDataset(world.catalog, body.dataset as string);
    const episode = dataset.episodes.find((e) => e.index === body.episode);
    if (!episode)
      throw invalidParam('episode', MESSAGES.noEpisode(dataset.id, body.episode as number));
    const tier = hardwareTierOf(body, world.catalog, DEFAULT_TWIN_TIER);
    const shared = sharedRequestFields(body);
    parseRunOptions(PLAN, shared.options);
    return {
      dataset: dataset.id,
      episode: episode.index,
      hardware_tier: tier,
      parts: twinPartsOf(episode),
      ...shared,
    };
  },
  hardwareTier: (request) => request.hardware_tier,
  plan(request) {
    const { durations_s } = parseRunOptions(PLAN, request.options);
    const steps = request.parts;
    // A twin the control API seeded is charged nothing: its seed route answers no 402.
    const seeded = request.seeded_file_count !== undefined;
    return {
      ...timelineOf(PLAN.timeline, durations_s, steps),
      estimate: seeded ? 0 : 4 + 2 * steps,
    };
  },
  // Never throws: settling a run must not fail on what its request names.
  context(request, _outcome, _id, catalog) {
    const dataset = catalog.datasets.find((d) => d.id === request.dataset);
    const episode = dataset?.episodes.find((e) => e.index === request.episode);
    return { request, dataset, episode, seed: seedOf(request) };
  },
  queuedLine: (request, attempt, total) =>
    `attempt ${attempt} queued: scene of ${request.dataset} episode ${request.episode}, ${total} parts`,
  stepLine: (_ctx, index, total) => `part ${index}/${total} reconstructed: ${partPath(index - 1)}`,
  success(ctx, steps) {
    return {
      result: {
        scene: { path: SCENE_PATH, parts: steps },
        dataset: ctx.request.dataset,
        episode: ctx.request.episode,
      },
      line: `twin succeeded: ${SCENE_PATH} with ${steps} parts`,
    };
  },
  archive(ctx, result, steps, logs) {
    return [
      { path: SCENE_PATH, content: sceneContent(ctx.request, steps) },
      ...Array.from({ length: steps }, (_, i) => ({
        path: partPath(i),
        content: partContent(ctx.seed, i),
      })),
      {
        path: 'twin.json',
        content: jsonFile({
          ...result,
          robot: ctx.dataset?.robot ?? null,
          fps: ctx.dataset?.fps ?? null,
          duration_s: ctx.episode?.duration_s ?? null,
        }),
      },
      { path: 'logs/twin.log', content: logs.map((l) => `${l}\n`).join('') },
    ];
  },
  fields: (record, state) => ({
    dataset: record.request.dataset,
    episode: record.request.episode,
    hardware_tier: record.request.hardware_tier,
    // What the file listing lists, so null until it can (API document section 3.2).
    file_count:
      state.status === 'succeeded'
        ? (record.request.seeded_file_count ?? archiveFileCount(state.episodes?.done ?? 0))
        : null,
    parts: state.episodes,
  }),
});
