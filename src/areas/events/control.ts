/**
 * Firing an event on demand (as `stripe trigger` does) and enabling a disabled webhook endpoint:
 * the control calls a receiver's tests need beside the deliveries (docs/control-api.md).
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { accountOf } from '../../core/accounts/account-of.js';
import { baseUrl } from '../../core/base-url.js';
import { errorResponses, jsonResponse, Metadata } from '../../core/contract.js';
import { AccountParam, json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import { settleSliced } from '../../engine/sliced-settle.js';
import { toEvent } from '../../engine/timeline/event-view.js';
import { WebhookEndpoint } from '../webhooks/contract.js';
import { toWebhookEndpoint } from '../webhooks/endpoint-view.js';
import { fireEvent } from '../webhooks/events.js';

const FireEventBody = z
  .object({
    type: z.string().openapi({
      description:
        'Any type the platform emits: `<kind>.<status>` of a run kind served (`<kind>.failed`, say), or `webhook_endpoint.disabled`.',
      example: 'evaluation.succeeded',
    }),
    resource: z.string().optional().openapi({
      description:
        "The run (of the type's kind) or endpoint the event shows, as a read shows it now; default the account's newest.",
    }),
    data: z
      .object({
        object: z.record(z.string(), z.unknown()).optional().openapi({
          description: 'The body to send as `data.object`, as given (needs `id` and `object`).',
        }),
        previous_status: z.string().nullable().optional(),
      })
      .strict()
      .optional(),
    webhook_metadata: Metadata.nullable().optional().openapi({
      description: "With `data.object`: the event's `webhook_metadata` (a run's own otherwise).",
    }),
  })
  .strict()
  .openapi({
    example: {
      type: 'evaluation.succeeded',
      data: {
        object: {
          id: 'eval_01KDVDNA0000000000000000EX',
          object: 'evaluation',
          status: 'succeeded',
        },
        previous_status: 'processing',
      },
    },
  });

export const fireEventRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/events',
  operationId: 'fireEvent',
  summary: 'Fire an event of any type: recorded in the event log and delivered',
  description:
    "Records an event at the account's now, listed by `GET /v1/events`, and delivers it to every endpoint subscribed to its type. Nothing else changes: no run moves.",
  request: { params: AccountParam, body: json(FireEventBody) },
  responses: {
    201: jsonResponse(
      z.record(z.string(), z.unknown()),
      'The event, as `GET /v1/events/{event_id}` shows it.',
    ),
    ...errorResponses([400, 404]),
  },
});

const EndpointParam = z.object({
  endpoint_id: z.string().openapi({ param: { name: 'endpoint_id', in: 'path' } }),
});

export const enableEndpointRoute = route({
  method: 'post',
  path: '/webhook_endpoints/{endpoint_id}/enable',
  operationId: 'enableWebhookEndpoint',
  summary: 'Enable a disabled webhook endpoint',
  description:
    'It takes deliveries again; the ones held while it was disabled are made, due ones first.',
  request: { params: EndpointParam },
  responses: { 200: jsonResponse(WebhookEndpoint, 'The endpoint.'), ...errorResponses([404]) },
});

export function registerWebhookEvents(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(fireEventRoute, async (c) => {
    const account = accountOf(deps, c.req.valid('param').account_id);
    // The event shows runs as a read would now: the account is brought to its now first.
    await settleSliced(deps, account, deps.clocks.now(account));
    const id = fireEvent(deps, account, c.req.valid('json'));
    const event = deps.store.events.get(account.id, id)!;
    return c.json(toEvent(event, baseUrl(c), deps.kinds.byName), 201);
  });

  app.openapi(enableEndpointRoute, (c) => {
    const { endpoint_id: id } = c.req.valid('param');
    const endpoint = deps.store.webhookEndpoints.find(id);
    if (!endpoint || endpoint.deletedAt) throw notFound('webhook endpoint', id, 'endpoint_id');
    deps.store.webhookEndpoints.setDisabled(id, null);
    deps.store.webhookEndpoints.setFailingSince(id, null);
    deps.webhooks.resumeEndpoint(id, endpoint.accountId);
    return c.json(toWebhookEndpoint({ ...endpoint, disabledAt: null }), 200);
  });
}
