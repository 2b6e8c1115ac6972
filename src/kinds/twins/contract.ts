/**
 * Twins (API document sections 1, 3.2 and 4.6; the rest inferred, DESIGN.md section 7): a scene
 * rebuilt from one dataset episode. The file listing is documented (`twin_id`, `twin_file`, 409
 * `twin_not_ready`); the engine's other routes take the same `twin_id`; all need `twins`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  FileEntry,
  FilePageQuery,
  INFERRED,
  jsonResponse,
  listOf,
  operationGuards,
} from '../../core/contract.js';
import { EXAMPLE_ULID, errorAnswers } from '../../core/error-answers.js';
import { MESSAGES } from '../../core/errors.js';
import { type RunRoutes, runRoutes } from '../../engine/contract/run-routes.js';
import {
  RunCreateCommon,
  type RunKindAddress,
  runResource,
  StepCounter,
} from '../../engine/contract/run-shapes.js';

export const ADDRESS = {
  name: 'twin',
  prefix: 'twin',
  collection: 'twins',
  scope: 'twins',
  feature: 'twins',
  tag: 'Twins',
  tagDescription:
    "Rebuild a robot episode as an interactable simulation scene (beta; needs the account's `twins` feature).",
} as const satisfies RunKindAddress;

const TwinFile = FileEntry.extend({ object: z.literal('twin_file') }).openapi('TwinFile');

const TwinIdParam = z.object({
  twin_id: z.string().openapi({ param: { name: 'twin_id', in: 'path' } }),
});

const listTwinFilesRoute = createRoute({
  method: 'get',
  path: '/v1/twins/{twin_id}/files',
  operationId: 'listTwinFiles',
  tags: ['Twins'],
  summary: "Every file in a succeeded twin's archive",
  description:
    'Paths in byte order. Twins are enabled per account: other accounts answer 403 `feature_not_enabled` (inferred).',
  ...operationGuards({ versions: ['2026-09-27'], scope: 'twins:read', feature: 'twins' }),
  request: { params: TwinIdParam, query: FilePageQuery },
  responses: {
    200: jsonResponse(listOf(TwinFile, 'TwinFileList'), 'A page of files.'),
    ...errorAnswers([400, 401, 403, 404, 409, 429], {
      codes: { 409: ['twin_not_ready'] },
      examples: {
        409: { code: 'twin_not_ready', message: MESSAGES.filesNotReady('twin', 'processing') },
      },
      resource: { noun: 'twin', id: `twin_${EXAMPLE_ULID}`, param: 'twin_id' },
    }),
  },
});

// Inferred operations (API document 4.8: "not shown"; DESIGN.md section 7). Off under --strict.

const CreateTwinBody = z
  .object({
    dataset: z.string().min(1).max(200).openapi({
      description: 'A catalog dataset id (`GET /v1/catalog/datasets`).',
      example: 'ds_01KA0000000000000000PANDA1',
    }),
    episode: z.number().int().min(0).openapi({
      description:
        "The `index` of one of the dataset's episodes; one it lacks answers 400 `parameter_invalid` naming `episode`.",
      example: 0,
    }),
    hardware_tier: z.string().min(1).max(64).optional().openapi({
      description: 'A catalog hardware tier; default `gpu-a10`. Its capacity bounds runs at once.',
    }),
    ...RunCreateCommon,
  })
  .strict()
  .openapi('CreateTwinRequest', {
    ...INFERRED,
    example: { dataset: 'ds_01KA0000000000000000PANDA1', episode: 0 },
  });

/** What `success()` yields (kind.ts, and seed.ts for a seeded twin). */
export const TwinResult = z
  .object({
    scene: z.object({ path: z.string(), parts: z.number().int() }),
    dataset: z.string(),
    episode: z.number().int(),
  })
  .openapi('TwinResult', INFERRED);

export const Twin = runResource(
  'twin',
  {
    dataset: z.string(),
    episode: z.number().int(),
    hardware_tier: z.string(),
    file_count: z.number().int().nullable().openapi({
      description: 'Files in the archive (what `/files` lists); null until the twin has succeeded.',
    }),
    parts: StepCounter.nullable().openapi({
      description:
        'Scene parts reconstructed so far, of the total; null for a run seeded without `steps`.',
    }),
  },
  TwinResult,
  'the scene (`scene.path`, its `parts`) and the dataset episode it was rebuilt from.',
);

/** The engine's routes under `twin_id`, with the documented file listing, all `--strict` serves. */
export const twinRoutes: RunRoutes = {
  ...runRoutes({
    ...ADDRESS,
    idParam: 'twin_id',
    createBody: CreateTwinBody,
    resource: Twin,
    yields: 'an interactable simulation scene rebuilt from one robot dataset episode',
  }),
  files: listTwinFilesRoute,
  notReadyCode: 'twin_not_ready',
  documented: ['files'],
};
