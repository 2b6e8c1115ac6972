/** The control API's world routes (DESIGN.md section 5): liveness, and reset. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { accountOf } from '../core/accounts/account-of.js';
import { wallNow } from '../core/clock.js';
import { errorResponses, jsonResponse } from '../core/contract.js';
import { json, route } from '../core/control-routes.js';
import type { AppEnv } from '../core/env.js';
import type { Deps } from '../engine/deps.js';
import { scenarioByName } from './control-scenarios.js';
import { replaceWorld } from './replace-world.js';
import { resetWorld } from './reset.js';

export const healthRoute = route({
  method: 'get',
  path: '/health',
  operationId: 'health',
  summary: 'Liveness; used by the Docker HEALTHCHECK',
  description:
    "Answers 200 with the version and uptime while the emulator serves. The Docker image's HEALTHCHECK and CI jobs wait for it.",
  responses: {
    200: jsonResponse(
      z.object({ status: z.literal('ok'), version: z.string(), uptime_s: z.number() }),
      'Up.',
    ),
  },
});

const ResetBody = z
  .object({ scenario: z.string().optional(), account: z.string().optional() })
  .strict()
  .openapi({ example: { account: 'acct_00000000000000000000000001' } });

export const resetRoute = route({
  method: 'post',
  path: '/reset',
  operationId: 'reset',
  summary: 'Back to the loaded (or named) scenario: everything, or one account',
  description:
    'Puts the world back to the loaded scenario, or to the named `scenario`; with `account`, only that account is reset (its clock, resources, keys, journal). An empty body resets everything.',
  request: { body: { ...json(ResetBody), required: false } },
  responses: {
    200: jsonResponse(z.object({ scenario: z.string(), account: z.string().nullable() }), 'Reset.'),
    ...errorResponses([400, 404]),
  },
});

export function registerWorld(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(healthRoute, (c) => {
    const uptime_s = Math.round((wallNow() - deps.startedAt) / 1000);
    return c.json({ status: 'ok' as const, version: deps.config.version, uptime_s }, 200);
  });

  app.openapi(resetRoute, async (c) => {
    const body = c.req.valid('json');
    const named = body.scenario ? scenarioByName(deps, body.scenario) : undefined;
    if (body.account) accountOf(deps, body.account);
    // A whole world from another scenario is replaced, or left as it was if the scenario fails.
    if (named && !body.account) await replaceWorld(deps, named.scenario, named.file);
    else resetWorld(deps, { scenario: named?.scenario, account: body.account });
    return c.json({ scenario: deps.scenarios.loaded.name, account: body.account ?? null }, 200);
  });
}
