/** Augmentations as a run kind: load, generate `episode_count` episodes, validate, package. */

import type { z } from '@hono/zod-openapi';
import { jsonFile } from '../../core/canonical-json.js';
import type { Catalog } from '../../core/catalog.js';
import { apiError, MESSAGES } from '../../core/errors.js';
import { defineKind } from '../../engine/define-kind.js';
import type { KindPlan } from '../../engine/kind-plan.js';
import { parseRunOptions, timelineOf } from '../../engine/run-options.js';
import { catalogDataset, hardwareTierOf, sharedRequestFields } from '../../engine/run-request.js';
import { ADDRESS, type AugmentationResult } from './contract.js';
import { cameraBytes, episodeAt, episodesOf, seedOf } from './outputs.js';
import type { AugmentationRequest } from './request.js';

/** Its timeline and failure codes, stated once. */
const PLAN = {
  timeline: {
    phases: ['loading', 'generating', 'validating', 'packaging'],
    stepPhase: 'generating',
    stepNoun: 'episode',
    // A default 4-episode augmentation takes 2.5 virtual seconds.
    defaults: { queue: 0.5, loading: 0.5, episode: 0.25, validating: 0.3, packaging: 0.2 },
  },
  failures: {
    messages: {
      dataset_unreadable: 'The dataset could not be read.',
      generation_failed: 'Generating an episode failed.',
    },
    invalidInput: { code: 'dataset_unreadable', param: 'dataset' },
    failedStep: {
      code: 'generation_failed',
      location: (step: number) => `episodes/${String(step).padStart(4, '0')}`,
    },
  },
} satisfies KindPlan;

const DEFAULT_TIER = 'gpu-a10';
const DEFAULT_VARIATIONS = ['lighting', 'background'];

interface Context {
  request: AugmentationRequest;
  dataset: Catalog['datasets'][number];
  seed: string;
}

type Result = z.infer<typeof AugmentationResult>;

export const augmentationKind = defineKind<AugmentationRequest, Context, Result>({
  ...ADDRESS,
  ...PLAN,
  prepare(body, world) {
    const config = body.config as {
      episode_count: number;
      cameras?: string[];
      variations?: string[];
    };
    const dataset = catalogDataset(world.catalog, body.dataset as string);
    // API document section 7: `camera_not_found`, with the cameras the dataset has.
    const missing = config.cameras?.find((cam) => !dataset.cameras.includes(cam));
    if (missing !== undefined)
      throw apiError('camera_not_found', {
        param: 'config.cameras',
        message: MESSAGES.cameraNotFound(missing, dataset.id),
        details: { cameras: dataset.cameras },
      });
    const tier = hardwareTierOf(body, world.catalog, DEFAULT_TIER);
    parseRunOptions(PLAN, (body.options ?? {}) as Record<string, unknown>);
    return {
      dataset: dataset.id,
      config: {
        episode_count: config.episode_count,
        cameras: config.cameras ? [...new Set(config.cameras)] : dataset.cameras,
        variations: config.variations ? [...new Set(config.variations)] : DEFAULT_VARIATIONS,
      },
      hardware_tier: tier,
      ...sharedRequestFields(body),
    };
  },
  hardwareTier: (request) => request.hardware_tier,
  plan(request) {
    const { durations_s } = parseRunOptions(PLAN, request.options);
    const steps = request.config.episode_count;
    return {
      ...timelineOf(PLAN.timeline, durations_s, steps),
      estimate: 5 + 2 * steps * request.config.cameras.length,
    };
  },
  context: (request, _outcome, _id, catalog) => ({
    request,
    // The dataset `prepare` checked, as the catalog has it.
    dataset: catalogDataset(catalog, request.dataset),
    seed: seedOf(request),
  }),
  queuedLine: (request, attempt, total) =>
    `attempt ${attempt} queued: ${total} episodes from ${request.dataset}, cameras ${request.config.cameras.join(',')}`,
  stepLine(ctx, index, total) {
    const ep = episodeAt(ctx.request, ctx.dataset, ctx.seed, index);
    return `episode ${index}/${total} generated from source episode ${ep.source_episode}: ${ep.frames} frames`;
  },
  success(ctx, steps) {
    const episodes = episodesOf(ctx.request, ctx.dataset, steps);
    const frames = episodes.reduce((n, e) => n + e.frames, 0);
    return {
      result: {
        dataset: ctx.request.dataset,
        episode_count: steps,
        cameras: ctx.request.config.cameras,
        total_frames: frames,
        episodes: episodes.map((e) => ({
          index: e.index,
          source_episode: e.source_episode,
          frames: e.frames,
          path: e.path,
        })),
      },
      line: `augmentation succeeded: ${steps} episodes, ${frames} frames`,
    };
  },
  archive(ctx, result, steps, logs) {
    const episodes = episodesOf(ctx.request, ctx.dataset, steps);
    return [
      {
        path: 'manifest.json',
        content: jsonFile({
          ...result,
          variations: ctx.request.config.variations,
          fps: ctx.dataset.fps,
        }),
      },
      ...episodes.flatMap((e) => [
        { path: `${e.path}/meta.json`, content: jsonFile(e) },
        ...e.cameras.map((cam) => ({
          path: `${e.path}/${cam}.mp4`,
          content: cameraBytes(ctx.seed, e.index, cam),
        })),
      ]),
      { path: 'logs/augment.log', content: logs.map((l) => `${l}\n`).join('') },
    ];
  },
  fields: (record, state) => ({
    dataset: record.request.dataset,
    config: record.request.config,
    hardware_tier: record.request.hardware_tier,
    episodes: state.episodes,
  }),
});
