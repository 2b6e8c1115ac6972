/**
 * Receiver chaos through the control API (docs/runtime.md "Receiver chaos"): give an account's
 * endpoints chaos, and judge an endpoint's receiver by its answers (the receiver report).
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { accountOf } from '../../core/accounts/account-of.js';
import { errorResponses, jsonResponse } from '../../core/contract.js';
import { AccountParam, json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { invalidParam, MESSAGES, notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import { normalizeChaos } from './chaos.js';
import { ReceiverChaosInput, ReceiverReport } from './chaos-contract.js';
import { ControlWebhookEndpoint } from './contract.js';
import { toControlWebhookEndpoint } from './endpoint-view.js';
import { deliveriesOf, receiverReport } from './receiver-report.js';

const SetChaosBody = z
  .object({
    chaos: ReceiverChaosInput,
    endpoints: z.array(z.string()).max(1000).optional().openapi({
      description:
        "The endpoints to change, each one of the account's (not deleted); default every endpoint of the account.",
    }),
  })
  .strict()
  .openapi('ControlSetWebhookChaos', {
    example: { chaos: { duplicate: true, bad_signature: true, stale_timestamp: 0.5 } },
  });

export const setWebhookChaosRoute = route({
  method: 'put',
  path: '/accounts/{account_id}/webhook_chaos',
  operationId: 'setWebhookChaos',
  tags: ['Webhooks'],
  summary: "Set the receiver chaos of an account's webhook endpoints",
  description:
    "Replaces the receiver chaos of the endpoints named (default: every endpoint of the account that is not deleted): the deliveries of events recorded from now on get it, drawn from the seed. `{chaos: {}}` turns it off. An endpoint that is not the account's answers 400 naming it.",
  request: { params: AccountParam, body: json(SetChaosBody) },
  responses: {
    200: jsonResponse(
      z.object({ object: z.literal('list'), data: z.array(ControlWebhookEndpoint) }),
      'The endpoints changed, oldest first.',
    ),
    ...errorResponses([400, 404]),
  },
});

export const receiverReportRoute = route({
  method: 'get',
  path: '/webhook_endpoints/{endpoint_id}/receiver_report',
  operationId: 'getReceiverReport',
  summary: "Judge an endpoint's receiver by its answers to real and chaos deliveries",
  description:
    'Over the deliveries kept: forged (`bad_signature`) and stale (`stale_timestamp`) ones must be refused with a 4xx; real ones, duplicates (the same `webhook-id` again), unknown types and events held back must be accepted with a 2xx. One finding per rule with its verdict (`pass`, `fail`, `not_judged`) and evidence: delivery ids, attempt times, statuses. A deleted endpoint answers 404.',
  request: {
    params: z.object({
      endpoint_id: z.string().openapi({ param: { name: 'endpoint_id', in: 'path' } }),
    }),
  },
  responses: {
    200: jsonResponse(ReceiverReport, 'The report.'),
    ...errorResponses([404]),
  },
});

export function registerWebhookChaos(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const endpoints = deps.store.webhookEndpoints;

  app.openapi(setWebhookChaosRoute, (c) => {
    const account = accountOf(deps, c.req.valid('param').account_id);
    const body = c.req.valid('json');
    const live = endpoints.ofAccount(account.id);
    const named = body.endpoints ?? live.map((e) => e.id);
    for (const [i, id] of named.entries())
      if (!live.some((e) => e.id === id))
        throw invalidParam(`endpoints.${i}`, MESSAGES.notAccountEndpoint(id, account.id));
    const chaos = normalizeChaos(body.chaos);
    deps.store.tx(() => {
      for (const id of named) endpoints.setChaos(id, chaos);
    });
    const data = live
      .filter((e) => named.includes(e.id))
      .map((e) => toControlWebhookEndpoint({ ...e, chaos }));
    return c.json({ object: 'list' as const, data }, 200);
  });

  app.openapi(receiverReportRoute, (c) => {
    const { endpoint_id: id } = c.req.valid('param');
    const endpoint = endpoints.find(id);
    if (!endpoint || endpoint.deletedAt) throw notFound('webhook endpoint', id, 'endpoint_id');
    return c.json(receiverReport(endpoint, deliveriesOf(deps, id)), 200);
  });
}
