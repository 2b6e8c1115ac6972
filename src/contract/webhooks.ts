/** Webhook endpoints (API document sections 2.6 and 4.7). */
import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, INFERRED, jsonResponse, operationGuards } from './common.js';

export const WebhookEndpointDeletion = z
  .object({
    id: z.string(),
    object: z.literal('webhook_endpoint'),
    deleted: z.boolean(),
  })
  .openapi('WebhookEndpointDeletion');

export const EndpointIdParam = z.object({
  endpoint_id: z.string().openapi({ param: { name: 'endpoint_id', in: 'path' } }),
});

export const deleteWebhookEndpointRoute = createRoute({
  method: 'delete',
  path: '/v1/webhook_endpoints/{endpoint_id}',
  operationId: 'deleteWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint',
  description:
    'The success status (200) and the 404 for an already deleted id are inferred (DESIGN.md section 3).',
  ...operationGuards({ versions: ['2026-09-27'], scope: 'webhooks:write' }),
  request: { params: EndpointIdParam },
  responses: {
    200: { ...jsonResponse(WebhookEndpointDeletion, 'The endpoint is deleted.'), ...INFERRED },
    ...errorResponses([400, 401, 403, 404, 429]),
  },
});
