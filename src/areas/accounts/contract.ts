/** API keys (API document sections 2.6, 4.2 and 5). */
import { createRoute, z } from '@hono/zod-openapi';
import { jsonResponse, operationGuards, Timestamp } from '../../core/contract.js';
import { errorAnswers } from '../../core/error-answers.js';

export const ApiKey = z
  .object({
    id: z.string(),
    object: z.literal('api_key'),
    name: z.string(),
    scopes: z.array(z.string()),
    created_at: Timestamp,
  })
  .openapi('ApiKey', {
    example: {
      id: 'key_00000000000000000000000001',
      object: 'api_key',
      name: 'default',
      scopes: ['evaluations:write', 'scenarios:write', 'usage:read'],
      created_at: '2026-01-01T00:00:00.000Z',
    },
  });

export const getKeyRoute = createRoute({
  method: 'get',
  path: '/v1/keys/me',
  operationId: 'getCurrentKey',
  tags: ['API keys'],
  summary: 'The key making the request',
  description: 'Returns the identity of the key making the request. Needs no scope (inferred).',
  ...operationGuards({ versions: ['2026-09-27'] }),
  responses: {
    200: jsonResponse(ApiKey, 'The API key.'),
    ...errorAnswers([400, 401, 429]),
  },
});
