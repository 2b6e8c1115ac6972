/** The control API's scenario routes (DESIGN.md section 5): list the files, load one. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { type ScenarioFile, scenarioSchema } from '../areas/scenarios/scenario-file.js';
import { errorResponses, jsonResponse } from '../core/contract.js';
import { json, route } from '../core/control-routes.js';
import type { AppEnv } from '../core/env.js';
import { apiError, MESSAGES } from '../core/errors.js';
import type { Deps } from '../engine/deps.js';
import { DataFileError, isScenarioName, loadScenario, ScenarioNotFound } from './load-scenario.js';
import { replaceWorld } from './replace-world.js';
import { scenarioSummaries } from './scenario-summaries.js';

export const listScenariosRoute = route({
  method: 'get',
  path: '/scenarios',
  operationId: 'listScenarios',
  summary: 'The scenario files of the scenarios folders',
  description:
    'The scenario files of `--scenarios-dir` and of the shipped `scenarios/` folder, each name once (the first folder wins), with their descriptions or why one cannot be loaded, and the name of the one loaded. A file that is not a regular one, or is over 1 MiB, is listed with that error without being read; the others are read once per change.',
  responses: {
    200: jsonResponse(
      z.object({
        object: z.literal('list'),
        loaded: z.string(),
        data: z.array(
          z.object({
            name: z.string(),
            description: z.string().nullable(),
            error: z
              .string()
              .nullable()
              .openapi({ description: 'Why the file cannot be loaded; null when it can.' }),
          }),
        ),
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
      'Replaces the whole world with a scenario: `{name}` loads a file of the scenarios folders (`--scenarios-dir`, then the shipped ones), `{scenario}` an inline scenario in the same format (exactly one of the two). A file that fails validation or while applied answers 400 naming the file and the field, and the world is left as it was. A scenario that makes more than 2,000 records or 20,000 rows of files and log lines answers 400 before any of it is applied.',
    request: {
      // One object rather than a union of two, so that a field at fault in an inline scenario
      // is named (`scenario.accounts.0.twins.0.generate_files`), not the union as a whole.
      body: json(
        z
          .object({
            name: z
              .string()
              .optional()
              .openapi({ description: 'A file of the scenarios folders.' }),
            scenario: ScenarioFile.optional().openapi({ description: 'An inline scenario.' }),
          })
          .strict()
          .refine((b) => (b.name === undefined) !== (b.scenario === undefined), {
            message: MESSAGES.nameOrScenario,
          })
          .openapi({ example: { name: 'default' } }),
      ),
    },
    responses: {
      200: jsonResponse(z.object({ scenario: z.string() }), 'Loaded.'),
      ...errorResponses([400, 404]),
    },
  });

/**
 * A scenario of the scenarios folders by name, with its file: 404 for a missing file, 400 for an
 * invalid one.
 */
export function scenarioByName(deps: Deps, name: string): { file: string; scenario: ScenarioFile } {
  try {
    if (!isScenarioName(name)) throw new DataFileError(name, null, MESSAGES.scenarioName);
    return loadScenario(deps.scenarios.dirs, name, deps.kinds);
  } catch (err) {
    if (!(err instanceof DataFileError)) throw err;
    if (err instanceof ScenarioNotFound)
      throw apiError('resource_not_found', { param: 'name', message: err.message });
    throw apiError('parameter_invalid', { param: err.field ?? 'name', message: err.message });
  }
}

export function registerScenarios(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(listScenariosRoute, async (c) => {
    const data = await scenarioSummaries(deps);
    return c.json({ object: 'list' as const, loaded: deps.scenarios.loaded.name, data }, 200);
  });

  app.openapi(loadScenarioRoute(scenarioSchema(deps.kinds)), async (c) => {
    const body = c.req.valid('json') as { name?: string; scenario?: ScenarioFile };
    const named = body.name === undefined ? null : scenarioByName(deps, body.name);
    const scenario = named?.scenario ?? body.scenario!;
    const source = named?.file ?? 'the inline scenario';
    await replaceWorld(deps, scenario, source);
    return c.json({ scenario: scenario.name }, 200);
  });
}
