/** Control seeding of a webhook endpoint (DESIGN.md section 5), as the product API would make it. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { accountOf } from '../../core/accounts/account-of.js';
import { errorResponses, jsonResponse } from '../../core/contract.js';
import { AccountParam, json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import type { Deps } from '../../engine/deps.js';
import { CreatedWebhookEndpoint } from './contract.js';
import { toWebhookEndpoint } from './endpoint-view.js';
import { seedWebhookEndpoint } from './endpoints.js';
import { WebhookEndpointInput } from './inputs.js';

export const seedWebhookEndpointRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/webhook_endpoints',
  operationId: 'seedWebhookEndpoint',
  summary: 'A webhook endpoint',
  description:
    'Creates a webhook endpoint of the account, as `POST /v1/webhook_endpoints` would, with its signing secret.',
  request: { params: AccountParam, body: json(WebhookEndpointInput) },
  responses: {
    201: jsonResponse(
      CreatedWebhookEndpoint,
      'Created: the endpoint as the product API shows it, with its signing secret.',
    ),
    ...errorResponses([400, 404]),
  },
});

/** `POST /_control/accounts/{id}/webhook_endpoints`. */
export function registerWebhookSeeding(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(seedWebhookEndpointRoute, (c) => {
    const acct = accountOf(deps, c.req.valid('param').account_id);
    const e = deps.store.tx(() => seedWebhookEndpoint(deps, acct, c.req.valid('json')));
    return c.json({ ...toWebhookEndpoint(e), secret: e.secret }, 201);
  });
}
