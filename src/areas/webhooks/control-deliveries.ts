/**
 * `/_control/webhook_deliveries`: what the dispatcher sent, is sending, or gave up on, with each
 * attempt; and redelivery, as `stripe events resend` does.
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { accountOf } from '../../core/accounts/account-of.js';
import { toTimestamp } from '../../core/clock.js';
import { errorResponses, jsonResponse, Timestamp } from '../../core/contract.js';
import { route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { apiError, MESSAGES, notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import { toEvent } from '../../engine/timeline/event-view.js';
import type { Delivery } from './deliveries.js';

const DeliveryStatus = z.enum(['pending', 'delivered', 'failed']);

const Attempt = z.object({
  series: z.number().int().openapi({ description: '1, and one more for each redelivery.' }),
  number: z.number().int().openapi({ description: "Its place in the series' retry schedule." }),
  at: Timestamp.openapi({ description: "The virtual instant it was due on the account's clock." }),
  wall_at: Timestamp.openapi({ description: 'Wall time it started.' }),
  in_flight: z.boolean().openapi({ description: 'Sent, and not answered yet.' }),
  status_code: z.number().int().nullable(),
  error: z
    .string()
    .nullable()
    .openapi({ description: 'Network error, `timeout`, or `event_gone`.' }),
  response_body: z.string().nullable().openapi({
    description: "The receiver's answer body, cut after 2,048 characters; null without one.",
  }),
  duration_ms: z.number().int().nullable().openapi({ description: 'Wall ms; null in flight.' }),
});

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
    attempts: z.array(Attempt),
    next_attempt_at: Timestamp.nullable().openapi({
      description: "While pending: the virtual instant of the next attempt on the account's clock.",
    }),
    created_at: Timestamp.openapi({ description: 'Wall time it was enqueued.' }),
  })
  .openapi('ControlWebhookDelivery');

const DeliveryParam = z.object({
  delivery_id: z.string().openapi({ param: { name: 'delivery_id', in: 'path' } }),
});

export const getWebhookDeliveryRoute = route({
  method: 'get',
  path: '/webhook_deliveries/{delivery_id}',
  operationId: 'getWebhookDelivery',
  summary: 'One webhook delivery with its payload and attempts',
  description:
    "One delivery: its status, the virtual instant of its next attempt while pending, the `payload` every attempt sends, and every attempt (due instant on the account's clock, wall time, status code and answer body or error, duration, in flight).",
  request: { params: DeliveryParam },
  responses: {
    200: jsonResponse(
      DeliveryView.extend({
        payload: z.string().nullable().openapi({
          description:
            'The JSON body each attempt sends (the event); null once the event is gone (a reset).',
        }),
      }).openapi('ControlWebhookDeliveryDetail'),
      'The delivery.',
    ),
    ...errorResponses([404]),
  },
});

export const redeliverWebhookRoute = route({
  method: 'post',
  path: '/webhook_deliveries/{delivery_id}/redeliver',
  operationId: 'redeliverWebhook',
  summary: 'Send a delivered or failed delivery again, as a new series of attempts',
  description:
    "The delivery becomes pending, its next attempt due now on its account's clock; the retry schedule starts again. 409 `delivery_pending` while it is pending, 409 `endpoint_unavailable` when its endpoint is deleted or disabled.",
  request: { params: DeliveryParam },
  responses: {
    200: jsonResponse(DeliveryView, 'The delivery, pending again.'),
    ...errorResponses([404, 409]),
  },
});

export const listWebhookDeliveriesRoute = route({
  method: 'get',
  path: '/webhook_deliveries',
  operationId: 'listWebhookDeliveries',
  summary: 'Webhook deliveries, oldest first, filtered, a page at a time (a reset forgets them)',
  description:
    'The webhook deliveries the emulator made, oldest first (`order=newest`: newest first), filtered, a page at a time. A reset forgets them.',
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
      order: z
        .enum(['oldest', 'newest'])
        .default('oldest')
        .openapi({ description: '`newest`: the most recent first.' }),
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

export const deliveryView = (d: Delivery) => ({
  id: d.id,
  object: 'webhook_delivery' as const,
  account_id: d.accountId,
  event_id: d.eventId,
  event_type: d.eventType,
  endpoint_id: d.endpointId,
  url: d.url,
  status: d.status,
  attempts: d.attempts.map((a) => ({
    series: a.series,
    number: a.number,
    at: toTimestamp(a.at),
    wall_at: toTimestamp(a.wallAt),
    in_flight: a.durationMs === null,
    status_code: a.statusCode,
    error: a.error,
    response_body: a.responseBody ?? null,
    duration_ms: a.durationMs,
  })),
  next_attempt_at: d.nextAt === null ? null : toTimestamp(d.nextAt),
  created_at: toTimestamp(d.createdAt),
});

export function registerWebhookDeliveries(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(listWebhookDeliveriesRoute, (c) => {
    const page = deps.webhooks.list(c.req.valid('query'));
    const data = page.data.map(deliveryView);
    const next_cursor = page.hasMore ? (data.at(-1)?.id ?? null) : null;
    return c.json({ object: 'list' as const, data, has_more: page.hasMore, next_cursor }, 200);
  });

  app.openapi(getWebhookDeliveryRoute, (c) => {
    const delivery = deliveryOf(deps, c.req.valid('param').delivery_id);
    const event = deps.store.events.get(delivery.accountId, delivery.eventId);
    // Built as each attempt builds it (runtime/webhooks/attempt.ts), from the stored event.
    const payload = event
      ? JSON.stringify(toEvent(event, deps.webhooks.origin, deps.kinds.byName))
      : null;
    return c.json({ ...deliveryView(delivery), payload }, 200);
  });

  app.openapi(redeliverWebhookRoute, (c) => {
    const delivery = deliveryOf(deps, c.req.valid('param').delivery_id);
    if (delivery.status === 'pending')
      throw apiError('delivery_pending', { message: MESSAGES.deliveryPending(delivery.id) });
    const endpoint = deps.store.webhookEndpoints.find(delivery.endpointId);
    const why =
      !endpoint || endpoint.deletedAt ? 'deleted' : endpoint.disabledAt ? 'disabled' : null;
    if (why) {
      const message = MESSAGES.endpointNotTaking(delivery.endpointId, why);
      throw apiError('endpoint_unavailable', { message });
    }
    const now = deps.clocks.now(accountOf(deps, delivery.accountId));
    return c.json(deliveryView(deps.webhooks.redeliver(delivery, now)), 200);
  });
}

function deliveryOf(deps: Deps, id: string): Delivery {
  const found = deps.webhooks.get(id);
  if (!found) throw notFound('webhook delivery', id, 'delivery_id');
  return found;
}
