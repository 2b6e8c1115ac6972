/** `GET /v1/requests` (inferred, DESIGN.md section 3): the caller's account's recent calls. */
import { createRoute, z } from '@hono/zod-openapi';
import {
  INFERRED,
  jsonResponse,
  listOf,
  operationGuards,
  pageQuery,
  Timestamp,
} from '../../core/contract.js';
import { errorAnswers } from '../../core/error-answers.js';

export const RequestRecord = z
  .object({
    id: z.string().openapi({ example: 'req_01KAZ0000000000000000000000' }),
    object: z.literal('request'),
    method: z.string(),
    path: z.string(),
    route: z.string().nullable().openapi({ description: 'The route template; null if none.' }),
    status: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Null when the connection was dropped without a response.' }),
    error_code: z.string().nullable(),
    key_id: z.string().nullable(),
    idempotent_replayed: z.boolean(),
    created_at: Timestamp,
  })
  .openapi('RequestRecord', INFERRED);

export const RequestList = listOf(RequestRecord, 'RequestList');

export const listRequestsRoute = createRoute({
  method: 'get',
  path: '/v1/requests',
  operationId: 'listRequests',
  summary: "The account's calls of the last 30 days, newest first (inferred)",
  tags: ['Requests'],
  ...INFERRED,
  ...operationGuards({ versions: ['2026-09-27'], scope: 'requests:read' }),
  request: {
    query: z.object(pageQuery('The id of the last request of the previous page.')),
  },
  responses: {
    200: jsonResponse(RequestList, 'A page.'),
    ...errorAnswers([400, 401, 403, 429]),
  },
});
