/** Scenario creation (API document sections 4.3 and 8; DESIGN.md section 3). */
import { createRoute, z } from '@hono/zod-openapi';
import {
  INFERRED,
  jsonResponse,
  listOf,
  Metadata,
  operationGuards,
  pageQuery,
  Timestamp,
} from '../../core/contract.js';
import { EXAMPLE_ULID, errorAnswers } from '../../core/error-answers.js';

export const CreateScenarioBody = z
  .object({
    robot: z.string().min(1).openapi({ description: 'Catalog robot id. Required (inferred).' }),
    task: z
      .string()
      .min(1)
      .openapi({ description: 'Task primitive id from the catalog. Required (inferred).' }),
    name: z.string().max(160).optional(),
    description: z.string().max(2000).optional(),
    embodiment: z.string().min(1).optional().openapi({
      description:
        "Simulator embodiment; default is the robot's first embodiment that the task accepts.",
    }),
    environment: z.string().min(1).optional().openapi({
      description:
        "Catalog environment id or a validated user environment id (`env_...`); default is the catalog's default environment.",
    }),
    object_set: z.string().min(1).optional().openapi({ description: 'Catalog object set id.' }),
    objects: z.array(z.string().min(1)).optional().openapi({
      description:
        'Explicit simulator asset names or validated user object ids (`obj_...`); overrides `object_set`.',
    }),
    env_args: Metadata.optional(),
    variation_axes: z.array(z.string()).optional(),
    default_max_steps: z.number().int().min(100).max(20000).optional(),
    est_episode_s: z.number().gt(0).max(3600).optional(),
    tags: z.array(z.string()).optional(),
  })
  .strict()
  .openapi('CreateScenarioRequest', {
    example: { robot: 'franka_panda', task: 'pick_place', name: 'Pick and place, default scene' },
  });
export type CreateScenarioBody = z.infer<typeof CreateScenarioBody>;

export const Scenario = z
  .object({
    id: z.string(),
    object: z.literal('scenario'),
    robot: z.string(),
    task: z.string(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    embodiment: z.string(),
    environment: z.string(),
    object_set: z.string().nullable(),
    objects: z.array(z.string()),
    env_args: Metadata,
    variation_axes: z.array(z.string()),
    default_max_steps: z.number().int(),
    est_episode_s: z.number(),
    tags: z.array(z.string()),
    builtin: z.boolean().openapi({
      description:
        "`true` for the emulator's fixed scenarios derived from the catalog, `false` for the account's own (inferred).",
    }),
    created_at: Timestamp,
  })
  .openapi('Scenario', {
    description:
      'The scenario with every body field resolved (inferred: the API document does not show the success body).',
    ...INFERRED,
  });
export type Scenario = z.infer<typeof Scenario>;

export const createScenarioRoute = createRoute({
  method: 'post',
  path: '/v1/scenarios',
  operationId: 'createScenario',
  tags: ['Scenarios'],
  summary: 'Create a scenario from a robot, a task and objects',
  description:
    'Preview. `robot` and `task` are required; unknown catalog ids answer 400 `parameter_invalid` naming the field (inferred).',
  ...operationGuards({ versions: ['2026-09-27'], scope: 'scenarios:write' }),
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: CreateScenarioBody } },
    },
  },
  responses: {
    201: { ...jsonResponse(Scenario, 'The created scenario.'), ...INFERRED },
    ...errorAnswers([400, 401, 403, 409, 413, 429]),
  },
});

// Inferred operations (API document 4.8: "not shown"; DESIGN.md section 7). Off under --strict.

export const ScenarioList = listOf(Scenario, 'ScenarioList');

export const ScenarioDeletion = z
  .object({ id: z.string(), object: z.literal('scenario'), deleted: z.boolean() })
  .openapi('ScenarioDeletion', INFERRED);

const ScenarioIdParam = z.object({
  scenario_id: z.string().openapi({ param: { name: 'scenario_id', in: 'path' } }),
});

const inferred = { ...INFERRED, tags: ['Scenarios'] };
const NAMED_SCENARIO = { noun: 'scenario', id: `scn_${EXAMPLE_ULID}`, param: 'scenario_id' };
const readGuards = operationGuards({ versions: ['2026-09-27'], scope: 'scenarios:read' });

export const listScenariosRoute = createRoute({
  method: 'get',
  path: '/v1/scenarios',
  operationId: 'listScenarios',
  summary: "List the built-in scenarios, then the account's own, newest first (inferred)",
  ...inferred,
  ...readGuards,
  request: {
    query: z.object(
      pageQuery(
        "The id of the last scenario of the previous page; an id that is neither built-in nor one of the account's scenarios answers 400 `parameter_invalid`.",
      ),
    ),
  },
  responses: {
    200: jsonResponse(ScenarioList, 'A page.'),
    ...errorAnswers([400, 401, 403, 429]),
  },
});

export const getScenarioRoute = createRoute({
  method: 'get',
  path: '/v1/scenarios/{scenario_id}',
  operationId: 'getScenario',
  summary: 'Get a scenario (inferred); a deleted one answers 404',
  ...inferred,
  ...readGuards,
  request: { params: ScenarioIdParam },
  responses: {
    200: jsonResponse(Scenario, 'The scenario.'),
    ...errorAnswers([400, 401, 403, 404, 429], { resource: NAMED_SCENARIO }),
  },
});

export const deleteScenarioRoute = createRoute({
  method: 'delete',
  path: '/v1/scenarios/{scenario_id}',
  operationId: 'deleteScenario',
  summary: "Delete one of the account's scenarios (inferred); built-in ones answer 409",
  ...inferred,
  ...operationGuards({ versions: ['2026-09-27'], scope: 'scenarios:write' }),
  request: { params: ScenarioIdParam },
  responses: {
    200: jsonResponse(ScenarioDeletion, 'The scenario is deleted.'),
    ...errorAnswers([400, 401, 403, 404, 409, 429], {
      codes: { 409: ['builtin_scenario'] },
      resource: NAMED_SCENARIO,
    }),
  },
});
