/** `GET /_control/webhook_deliveries`: what the dispatcher sent, is sending, or gave up on. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { errorResponses, jsonResponse, Timestamp } from '../contract/common.js';
import { toTimestamp } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import type { Delivery } from '../runtime/webhooks/deliveries.js';
import { route } from './route-helpers.js';

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
  summary: 'Webhook deliveries, oldest first, filtered, a page at a time (a reset forgets them)',
  description:
    'The webhook deliveries the emulator made, oldest first, filtered, a page at a time. A reset forgets them.',
  request: {
    query: z.object({
      account: z.string().optional(),
      endpoint: z.string().optional(),
      event: z.string().optional(),
      status: DeliveryStatus.optional(),
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(1000)
        .default(100)
        .openapi({ description: 'Deliveries per page (1 to 1000, default 100).' }),
      after: z
        .string()
        .optional()
        .openapi({ description: 'A delivery id (`next_cursor`): the page after it.' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        object: z.literal('list'),
        data: z.array(DeliveryView),
        has_more: z.boolean(),
        next_cursor: z.string().nullable(),
      }),
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
  app.openapi(listWebhookDeliveriesRoute, (c) => {
    const page = deps.webhooks.list(c.req.valid('query'));
    const data = page.data.map(deliveryView);
    const next_cursor = page.hasMore ? (data.at(-1)?.id ?? null) : null;
    return c.json({ object: 'list' as const, data, has_more: page.hasMore, next_cursor }, 200);
  });
}
