/** Webhook endpoints (API document sections 2.6 and 4.7; the rest inferred). */
import { createRoute, z } from '@hono/zod-openapi';
import {
  INFERRED,
  jsonResponse,
  listOf,
  Metadata,
  operationGuards,
  pageQuery,
  Timestamp,
} from '../../core/contract.js';
import { EXAMPLE_ULID, errorAnswers } from '../../core/error-answers.js';
import { ReceiverChaos, ReceiverChaosInput } from './chaos-contract.js';

export const WebhookEndpointDeletion = z
  .object({ id: z.string(), object: z.literal('webhook_endpoint'), deleted: z.boolean() })
  .openapi('WebhookEndpointDeletion');

export const EndpointIdParam = z.object({
  endpoint_id: z.string().openapi({ param: { name: 'endpoint_id', in: 'path' } }),
});

/** The endpoint a path names, as its 404 names it. */
const NAMED_ENDPOINT = {
  noun: 'webhook endpoint',
  id: `whe_${EXAMPLE_ULID}`,
  param: 'endpoint_id',
};

export const deleteWebhookEndpointRoute = createRoute({
  method: 'delete',
  path: '/v1/webhook_endpoints/{endpoint_id}',
  operationId: 'deleteWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint',
  description:
    'The success status (200) and the 404 for an already deleted id are inferred: the API document does not show them.',
  ...operationGuards({ versions: ['2026-09-27'], scope: 'webhooks:write' }),
  request: { params: EndpointIdParam },
  responses: {
    200: { ...jsonResponse(WebhookEndpointDeletion, 'The endpoint is deleted.'), ...INFERRED },
    ...errorAnswers([400, 401, 403, 404, 429], { resource: NAMED_ENDPOINT }),
  },
});

// Inferred operations (API document 4.8: "not shown"; DESIGN.md section 3). Off under --strict.

export const WebhookEndpoint = z
  .object({
    id: z.string().openapi({ example: 'whe_01KDVMMVA8MKDG6SDMPFW7GANV' }),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    events: z.array(z.string()).openapi({ description: 'Event kinds it receives; `*`: all.' }),
    description: z.string().nullable(),
    metadata: Metadata,
    status: z.enum(['enabled', 'disabled']).openapi({
      description:
        'An endpoint whose deliveries all failed for 5 virtual days is `disabled`: it gets nothing until enabled again.',
    }),
    disabled_at: Timestamp.nullable().openapi({
      description: 'The virtual instant it was disabled.',
    }),
    created_at: Timestamp,
  })
  .openapi('WebhookEndpoint', INFERRED);

/** The events about endpoints themselves (inferred, like every event type). */
export const ENDPOINT_EVENT_TYPES = ['webhook_endpoint.disabled'] as const;

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().openapi({
    description:
      'The signing secret, `whsec_...`: shown only in this response (nothing is delivered yet).',
  }),
}).openapi('CreatedWebhookEndpoint', INFERRED);

export const CreateWebhookEndpointBody = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .openapi({ description: 'An http or https URL, up to 2048 characters.' }),
    events: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(100)
      .default(['*'])
      .openapi({ description: 'Event kinds to receive; default `["*"]`, every kind.' }),
    description: z.string().max(500).nullable().optional(),
    metadata: Metadata.optional(),
    emulator: z
      .object({ chaos: ReceiverChaosInput.optional() })
      .strict()
      .optional()
      .openapi({
        ...INFERRED,
        description:
          'Emulator extension, not part of the platform: `chaos`, the receiver chaos its deliveries get (docs/runtime.md "Receiver chaos"). The endpoint body does not show it; `GET /_control/webhook_endpoints` does.',
      }),
  })
  .strict()
  .openapi('CreateWebhookEndpointRequest', {
    ...INFERRED,
    example: { url: 'https://example.com/hooks', events: ['evaluation.succeeded'] },
  });

export const WebhookEndpointList = listOf(WebhookEndpoint, 'WebhookEndpointList');

/** An endpoint with chaos, as the control API shows it. */
const CONTROL_ENDPOINT_EXAMPLE = {
  id: 'whe_01KDVMMVA8MKDG6SDMPFW7GANV',
  object: 'webhook_endpoint',
  url: 'http://127.0.0.1:4000/hooks',
  events: ['*'],
  description: null,
  metadata: {},
  status: 'enabled',
  disabled_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  account_id: 'acct_00000000000000000000000001',
  chaos: {
    duplicate: 1,
    out_of_order: 0,
    stale_timestamp: 0.5,
    bad_signature: 1,
    unknown_type: 0,
  },
};

/** An endpoint as the control API shows it: its account and its receiver chaos too. */
export const ControlWebhookEndpoint = WebhookEndpoint.extend({
  account_id: z.string(),
  chaos: ReceiverChaos.nullable().openapi({
    description: 'Its receiver chaos (docs/runtime.md "Receiver chaos"); null for none.',
  }),
}).openapi('ControlWebhookEndpoint', { example: CONTROL_ENDPOINT_EXAMPLE });

/** The control API's new endpoint, with its signing secret. */
export const ControlCreatedWebhookEndpoint = ControlWebhookEndpoint.extend({
  secret: z.string().openapi({ description: 'The signing secret, `whsec_...`.' }),
}).openapi('ControlCreatedWebhookEndpoint', {
  example: { ...CONTROL_ENDPOINT_EXAMPLE, secret: 'whsec_C2FVsBQIhrscChlQIMV4ZS9GFqJWiuqK' },
});

const inferred = { ...INFERRED, tags: ['Webhooks'] };
const readGuards = operationGuards({ versions: ['2026-09-27'], scope: 'webhooks:read' });

export const createWebhookEndpointRoute = createRoute({
  method: 'post',
  path: '/v1/webhook_endpoints',
  operationId: 'createWebhookEndpoint',
  summary: 'Create a webhook endpoint (inferred)',
  ...inferred,
  ...operationGuards({ versions: ['2026-09-27'], scope: 'webhooks:write' }),
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: CreateWebhookEndpointBody } },
    },
  },
  responses: {
    201: jsonResponse(CreatedWebhookEndpoint, 'The endpoint, with its signing secret.'),
    ...errorAnswers([400, 401, 403, 409, 413, 429]),
  },
});

export const getWebhookEndpointRoute = createRoute({
  method: 'get',
  path: '/v1/webhook_endpoints/{endpoint_id}',
  operationId: 'getWebhookEndpoint',
  summary: 'Get a webhook endpoint (inferred); a deleted one answers 404',
  ...inferred,
  ...readGuards,
  request: { params: EndpointIdParam },
  responses: {
    200: jsonResponse(WebhookEndpoint, 'The endpoint.'),
    ...errorAnswers([400, 401, 403, 404, 429], { resource: NAMED_ENDPOINT }),
  },
});

export const listWebhookEndpointsRoute = createRoute({
  method: 'get',
  path: '/v1/webhook_endpoints',
  operationId: 'listWebhookEndpoints',
  summary: 'List webhook endpoints, newest first (inferred); deleted ones are gone',
  ...inferred,
  ...readGuards,
  request: {
    query: z.object(
      pageQuery(
        "The id of the last endpoint of the previous page; an id that is not one of the account's endpoints answers 400 `parameter_invalid`.",
      ),
    ),
  },
  responses: {
    200: jsonResponse(WebhookEndpointList, 'A page.'),
    ...errorAnswers([400, 401, 403, 429]),
  },
});
