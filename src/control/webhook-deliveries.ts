/** `GET /_control/webhook_deliveries`: what the dispatcher sent, is sending, or gave up on. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { errorResponses, jsonResponse, Timestamp } from '../contract/common.js';
import { toTimestamp } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import type { Delivery } from '../runtime/webhook-deliveries.js';
import { route } from './routes.js';

const DeliveryStatus = z.enum(['pending', 'delivered', 'failed']);

const DeliveryView = z
  .object({
    id: z.string(),
    object: z.literal('webhook_delivery'),
    account_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    endpoint_id: z.string(),
    url: z.string(),
    status: DeliveryStatus,
    attempts: z.array(
      z.object({
        at: Timestamp.openapi({ description: 'Wall time the attempt started.' }),
        status_code: z.number().int().nullable(),
        error: z.string().nullable().openapi({ description: 'Network error or `timeout`.' }),
      }),
    ),
    created_at: Timestamp.openapi({ description: 'Wall time it was enqueued.' }),
  })
  .openapi('ControlWebhookDelivery');

export const listWebhookDeliveriesRoute = route({
  method: 'get',
  path: '/webhook_deliveries',
  operationId: 'listWebhookDeliveries',
  summary: 'Webhook deliveries, oldest first, filtered (in memory: a reset forgets them)',
  request: {
    query: z.object({
      account: z.string().optional(),
      endpoint: z.string().optional(),
      event: z.string().optional(),
      status: DeliveryStatus.optional(),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ object: z.literal('list'), data: z.array(DeliveryView) }),
      'The deliveries.',
    ),
    ...errorResponses([400]),
  },
});

const deliveryView = (d: Delivery) => ({
  id: d.id,
  object: 'webhook_delivery' as const,
  account_id: d.accountId,
  event_id: d.eventId,
  event_type: d.eventType,
  endpoint_id: d.endpointId,
  url: d.url,
  status: d.status,
  attempts: d.attempts.map((a) => ({
    at: toTimestamp(a.at),
    status_code: a.statusCode,
    error: a.error,
  })),
  created_at: toTimestamp(d.createdAt),
});

export function registerWebhookDeliveries(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(listWebhookDeliveriesRoute, (c) =>
    c.json(
      {
        object: 'list' as const,
        data: deps.webhooks.list(c.req.valid('query')).map(deliveryView),
      },
      200,
    ),
  );
}
