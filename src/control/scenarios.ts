/** The control API's scenario routes (DESIGN.md section 5): list the files, load one. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { errorResponses, jsonResponse } from '../contract/common.js';
import type { ScenarioFile } from '../contract/scenario-file.js';
import { apiError, type ErrorCode } from '../errors.js';
import type { Deps } from '../runtime/deps.js';
import {
  DataFileError,
  listScenarios,
  loadScenarioFile,
  scenarioSchema,
} from '../world/load-scenario.js';
import { resetWorld } from '../world/reset.js';
import { json, route } from './route-helpers.js';

export const listScenariosRoute = route({
  method: 'get',
  path: '/scenarios',
  operationId: 'listScenarios',
  summary: 'The scenario files in scenarios/',
  description:
    'The scenario files of the scenarios directory, with their descriptions, and the name of the one loaded.',
  responses: {
    200: jsonResponse(
      z.object({
        object: z.literal('list'),
        loaded: z.string(),
        data: z.array(z.object({ name: z.string(), description: z.string().nullable() })),
      }),
      'Scenarios.',
    ),
  },
});

export const loadScenarioRoute = (ScenarioFile: z.ZodType) =>
  route({
    method: 'post',
    path: '/scenarios/load',
    operationId: 'loadScenario',
    summary: 'Replace the world with a named or inline scenario',
    description:
      'Replaces the whole world with a scenario: `{name}` loads a file of the scenarios directory, `{scenario}` an inline scenario in the same format.',
    request: {
      body: json(
        z
          .union([
            z.object({ name: z.string() }).strict(),
            z.object({ scenario: ScenarioFile }).strict(),
          ])
          .openapi({ example: { name: 'default' } }),
      ),
    },
    responses: {
      200: jsonResponse(z.object({ scenario: z.string() }), 'Loaded.'),
      ...errorResponses([400, 404]),
    },
  });

/** A scenario of the scenarios directory: 404 for a missing file, 400 for an invalid one. */
export function scenarioByName(deps: Deps, name: string): ScenarioFile {
  try {
    return loadScenarioFile(deps.scenarios.dir, name, deps.kinds);
  } catch (err) {
    if (!(err instanceof DataFileError)) throw err;
    const missing = /cannot read/.test(err.message);
    const code: ErrorCode = missing ? 'resource_not_found' : 'parameter_invalid';
    throw apiError(code, { param: missing ? 'scenario' : err.field, message: err.message });
  }
}

export function registerScenarios(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(listScenariosRoute, (c) => {
    const data = listScenarios(deps.scenarios.dir).map((name) => {
      const file = scenarioByName(deps, name);
      return { name, description: file.description ?? null };
    });
    return c.json({ object: 'list' as const, loaded: deps.scenarios.loaded.name, data }, 200);
  });

  app.openapi(loadScenarioRoute(scenarioSchema(deps.kinds)), (c) => {
    const body = c.req.valid('json') as { name: string } | { scenario: ScenarioFile };
    const scenario = 'name' in body ? scenarioByName(deps, body.name) : body.scenario;
    resetWorld(deps, { scenario });
    return c.json({ scenario: scenario.name }, 200);
  });
}
