/**
 * Augmentations (inferred; API document sections 1, 7 and 8): new episodes generated from a robot
 * dataset. `config.episode_count` is 1 to 50 (section 8's `parameter_invalid` example); cameras
 * the dataset lacks answer 400 `camera_not_found` with `details.cameras` (section 7).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { INFERRED, jsonResponse, listOf, operationGuards } from '../../core/contract.js';
import { EXAMPLE_ULID, errorAnswers } from '../../core/error-answers.js';
import { MESSAGES } from '../../core/errors.js';
import { runRoutes } from '../../engine/contract/run-routes.js';
import {
  RunCreateCommon,
  type RunKindAddress,
  runResource,
  StepCounter,
} from '../../engine/contract/run-shapes.js';

export const ADDRESS = {
  name: 'augmentation',
  prefix: 'aug',
  collection: 'augmentations',
  scope: 'augmentations',
  tag: 'Augmentations',
  tagDescription: 'Generate new episodes from a robot dataset (beta).',
} as const satisfies RunKindAddress;

const VARIATIONS = ['lighting', 'background', 'distractors', 'camera_pose', 'textures'] as const;

const AugmentationConfig = z
  .object({
    episode_count: z.number().int().min(1).max(50).openapi({
      description: 'How many episodes to generate, 1 to 50 (API document section 8).',
      example: 4,
    }),
    cameras: z.array(z.string().min(1).max(100)).min(1).max(16).optional().openapi({
      description:
        'The dataset cameras to render; default all of them. A camera the dataset lacks answers 400 `camera_not_found` with `details.cameras` (the ones it has).',
    }),
    variations: z.array(z.enum(VARIATIONS)).max(5).optional().openapi({
      description: 'What to vary between generated episodes; default `lighting` and `background`.',
    }),
  })
  .strict();

const CreateAugmentationBody = z
  .object({
    dataset: z.string().min(1).max(200).openapi({
      description: 'A catalog dataset id (`GET /v1/catalog/datasets`).',
      example: 'ds_01KA0000000000000000PANDA1',
    }),
    config: AugmentationConfig,
    hardware_tier: z.string().min(1).max(64).optional().openapi({
      description: 'A catalog hardware tier; default `gpu-a10`. Its capacity bounds runs at once.',
    }),
    ...RunCreateCommon,
  })
  .strict()
  .openapi('CreateAugmentationRequest', {
    ...INFERRED,
    example: { dataset: 'ds_01KA0000000000000000PANDA1', config: { episode_count: 4 } },
  });

/** What `success()` yields (kind.ts): the generated episodes, as the episode listing has them. */
export const AugmentationResult = z
  .object({
    dataset: z.string(),
    episode_count: z.number().int(),
    cameras: z.array(z.string()),
    total_frames: z.number().int(),
    episodes: z.array(
      z.object({
        index: z.number().int(),
        source_episode: z.number().int(),
        frames: z.number().int(),
        path: z.string(),
      }),
    ),
  })
  .openapi('AugmentationResult', INFERRED);

export const Augmentation = runResource(
  'augmentation',
  {
    dataset: z.string(),
    config: z.object({
      episode_count: z.number().int(),
      cameras: z.array(z.string()),
      variations: z.array(z.string()),
    }),
    hardware_tier: z.string(),
    episodes: StepCounter.nullable().openapi({
      description:
        'Episodes generated so far, of the total; null for a run seeded without `steps`.',
    }),
  },
  AugmentationResult,
  'the generated episodes (`GET /v1/augmentations/{id}/episodes`) and their frame counts.',
);

export const augmentationRoutes = runRoutes({
  ...ADDRESS,
  createBody: CreateAugmentationBody,
  resource: Augmentation,
  yields: 'new episodes generated from a robot dataset, each rendered from the chosen cameras',
  createErrors: {
    codes: { 400: ['parameter_invalid', 'unsupported_version', 'camera_not_found'] },
    examples: {
      400: {
        code: 'camera_not_found',
        message: MESSAGES.cameraNotFound('top', 'ds_01KA0000000000000000PANDA1'),
        param: 'config.cameras',
        details: { cameras: ['wrist', 'front'] },
      },
    },
  },
});

const AugmentationEpisode = z
  .object({
    index: z.number().int().openapi({ description: '1-based, in generation order.' }),
    object: z.literal('augmentation_episode'),
    source_episode: z.number().int().openapi({ description: 'The dataset episode it varies.' }),
    cameras: z.array(z.string()),
    frames: z.number().int(),
    duration_s: z.number(),
    variation: z.record(z.string(), z.number()),
    path: z.string().openapi({ description: 'Its folder in the archive, under `<id>/`.' }),
  })
  .openapi('AugmentationEpisode', INFERRED);

export const listAugmentationEpisodesRoute = createRoute({
  method: 'get',
  path: '/v1/augmentations/{run_id}/episodes',
  operationId: 'listAugmentationEpisodes',
  tags: ['Augmentations'],
  summary: 'The episodes an augmentation has generated so far (inferred)',
  description:
    'In generation order, readable while it runs; one page (at most 50, the episode_count limit).',
  ...INFERRED,
  ...operationGuards({ versions: ['2026-09-27'], scope: 'augmentations:read' }),
  request: {
    params: z.object({
      run_id: z.string().openapi({ param: { name: 'run_id', in: 'path' } }),
    }),
  },
  responses: {
    200: jsonResponse(listOf(AugmentationEpisode, 'AugmentationEpisodeList'), 'The episodes.'),
    ...errorAnswers([400, 401, 403, 404, 429], {
      resource: { noun: 'augmentation', id: `aug_${EXAMPLE_ULID}`, param: 'run_id' },
    }),
  },
});
