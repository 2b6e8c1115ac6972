/** Control seeding of user environments and objects (DESIGN.md section 5). */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { accountOf } from '../../core/accounts/account-of.js';
import { errorResponses, jsonResponse, Timestamp } from '../../core/contract.js';
import { AccountParam, json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import type { Deps } from '../../engine/deps.js';
import { UserAssetInput } from './inputs.js';
import { seedUserAsset } from './seed-asset.js';

const AssetView = z
  .object({
    id: z.string(),
    object: z.enum(['environment', 'object']),
    name: z.string(),
    status: z.string(),
    created_at: Timestamp,
  })
  .openapi('ControlUserAsset');

export const seedEnvironmentRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/environments',
  operationId: 'seedEnvironment',
  summary: 'A user environment (`env_`) that scenarios may name once validated',
  description: 'Creates a user environment (`env_`), validated unless `status` says otherwise.',
  request: { params: AccountParam, body: json(UserAssetInput) },
  responses: { 201: jsonResponse(AssetView, 'Created.'), ...errorResponses([400, 404]) },
});

const seedObjectRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/objects',
  operationId: 'seedObject',
  summary: 'A user object (`obj_`) that scenarios may name once validated',
  description: 'Creates a user object (`obj_`), validated unless `status` says otherwise.',
  request: { params: AccountParam, body: json(UserAssetInput) },
  responses: { 201: jsonResponse(AssetView, 'Created.'), ...errorResponses([400, 404]) },
});

/** `POST /_control/accounts/{id}/environments` and `.../objects`. */
export function registerAssetSeeding(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  for (const [r, kind] of [
    [seedEnvironmentRoute, 'environment'],
    [seedObjectRoute, 'object'],
  ] as const) {
    app.openapi(r, (c) => {
      const acct = accountOf(deps, c.req.valid('param').account_id);
      const asset = deps.store.tx(() => seedUserAsset(deps, acct, kind, c.req.valid('json')));
      const { id, name, status, createdAt } = asset;
      return c.json({ id, object: kind, name, status, created_at: createdAt }, 201);
    });
  }
}
