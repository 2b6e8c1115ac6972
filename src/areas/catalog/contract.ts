/** The catalog (API document section 1), all inferred: served from `fixtures/catalog.json`. */
import { createRoute, z } from '@hono/zod-openapi';
import { INFERRED, jsonResponse, listOf, operationGuards, Timestamp } from '../../core/contract.js';
import { EXAMPLE_ULID, errorAnswers } from '../../core/error-answers.js';

export const CatalogRobot = z
  .object({
    id: z.string().openapi({ example: 'franka_panda' }),
    object: z.literal('robot'),
    embodiments: z.array(z.string()),
  })
  .openapi('CatalogRobot', INFERRED);

export const CatalogTask = z
  .object({
    id: z.string().openapi({ example: 'pick_place' }),
    object: z.literal('task'),
    embodiments: z.array(z.string()).openapi({ description: 'Embodiments that can run the task.' }),
    default_max_steps: z.number().int(),
    est_episode_s: z.number().openapi({ description: 'Estimated virtual seconds per episode.' }),
  })
  .openapi('CatalogTask', INFERRED);

export const CatalogEnvironment = z
  .object({
    id: z.string().openapi({ example: 'tabletop_basic' }),
    object: z.literal('environment'),
    default: z.boolean().openapi({ description: 'The environment a scenario gets by default.' }),
  })
  .openapi('CatalogEnvironment', INFERRED);

export const CatalogObjectSet = z
  .object({
    id: z.string().openapi({ example: 'ycb_core' }),
    object: z.literal('object_set'),
    objects: z.array(z.string()),
  })
  .openapi('CatalogObjectSet', INFERRED);

export const Policy = z
  .object({
    id: z.string().openapi({ example: 'pol_01KA0000000000000000PANDA1' }),
    object: z.literal('policy'),
    name: z.string(),
    robot: z.string(),
    created_at: Timestamp,
    source_run: z.string().nullable().openapi({
      description:
        "The account's succeeded training or RL run that produced it; null for the catalog's own.",
    }),
  })
  .openapi('Policy', INFERRED);

export const HardwareTier = z
  .object({
    id: z.string().openapi({ example: 'gpu-a10' }),
    object: z.literal('hardware_tier'),
    name: z.string(),
    capacity: z.object({ concurrent_runs: z.number().int(), tokens_per_minute: z.number() }),
  })
  .openapi('HardwareTier', INFERRED);

const datasetFields = {
  id: z.string().openapi({ example: 'ds_01KA0000000000000000PANDA1' }),
  object: z.literal('dataset'),
  name: z.string(),
  robot: z.string(),
  fps: z.number().int(),
  cameras: z.array(z.string()),
  episode_count: z.number().int(),
};

export const DatasetSummary = z.object(datasetFields).openapi('DatasetSummary', INFERRED);

export const Dataset = z
  .object({
    ...datasetFields,
    episodes: z.array(
      z.object({ index: z.number().int(), duration_s: z.number() }).openapi({
        description: 'One recorded episode; its frames are `duration_s` times `fps`.',
      }),
    ),
  })
  .openapi('Dataset', INFERRED);

export const DatasetIdParam = z.object({
  dataset_id: z.string().openapi({ param: { name: 'dataset_id', in: 'path' } }),
});

// Any valid key reads the catalog, like GET /v1/keys/me: no scope.
const guards = operationGuards({ versions: ['2026-09-27'] });

/** One `GET /v1/catalog/{area}` listing: the whole fixture list in one page. */
function listRoute<T extends z.ZodType>(area: string, operationId: string, item: T, name: string) {
  return createRoute({
    method: 'get',
    path: `/v1/catalog/${area}`,
    operationId,
    tags: ['Catalog'],
    summary: `List the catalog's ${area.replace('_', ' ')} (inferred)`,
    description: 'The whole list in one page (`has_more: false`). Any valid key.',
    ...INFERRED,
    ...guards,
    responses: {
      200: jsonResponse(listOf(item, name), 'The list.'),
      ...errorAnswers([400, 401, 429]),
    },
  });
}

export const catalogListRoutes = {
  robots: listRoute('robots', 'listCatalogRobots', CatalogRobot, 'CatalogRobotList'),
  tasks: listRoute('tasks', 'listCatalogTasks', CatalogTask, 'CatalogTaskList'),
  environments: listRoute(
    'environments',
    'listCatalogEnvironments',
    CatalogEnvironment,
    'CatalogEnvironmentList',
  ),
  object_sets: listRoute(
    'object_sets',
    'listCatalogObjectSets',
    CatalogObjectSet,
    'CatalogObjectSetList',
  ),
  policies: listRoute('policies', 'listPolicies', Policy, 'PolicyList'),
  hardware_tiers: listRoute(
    'hardware_tiers',
    'listHardwareTiers',
    HardwareTier,
    'HardwareTierList',
  ),
  datasets: listRoute('datasets', 'listDatasets', DatasetSummary, 'DatasetList'),
};

export const getDatasetRoute = createRoute({
  method: 'get',
  path: '/v1/catalog/datasets/{dataset_id}',
  operationId: 'getDataset',
  tags: ['Catalog'],
  summary: 'Inspect a dataset: its episodes, cameras and fps (inferred)',
  description: 'Any valid key. An unknown id answers 404 `resource_not_found`.',
  ...INFERRED,
  ...guards,
  request: { params: DatasetIdParam },
  responses: {
    200: jsonResponse(Dataset, 'The dataset.'),
    ...errorAnswers([400, 401, 404, 429], {
      resource: { noun: 'dataset', id: `ds_${EXAMPLE_ULID}`, param: 'dataset_id' },
    }),
  },
});
