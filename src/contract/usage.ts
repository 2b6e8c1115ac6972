/** `GET /v1/usage` (inferred, DESIGN.md sections 3 and 7): the account's balance and token use. */
import { createRoute, z } from '@hono/zod-openapi';
import { EVALUATION_STATUSES } from '../kinds/evaluations/contract.js';
import { errorResponses, INFERRED, jsonResponse, operationGuards } from './common.js';
import { RUN_KIND_ADDRESSES } from './run-kinds.js';

const count = z.number().int().min(0);

const Counts = z.object({
  total: count,
  by_status: z
    .object(
      Object.fromEntries(EVALUATION_STATUSES.map((s) => [s, count])) as {
        [K in (typeof EVALUATION_STATUSES)[number]]: typeof count;
      },
    )
    .openapi({ description: 'How many runs of the kind are in each status now; every status.' }),
});
export type RunCounts = z.infer<typeof Counts>;

export const Usage = z
  .object({
    object: z.literal('usage'),
    token_balance: z.number().int().openapi({ description: 'Tokens (credits) left to spend.' }),
    tokens: z
      .object({
        charged: z.number().int(),
        refunded: z.number().int(),
        net: z.number().int().openapi({ description: '`charged` minus `refunded`.' }),
      })
      .openapi({
        description: "Sums of the `tokens` of every one of the account's runs, of every kind.",
      }),
    ...(Object.fromEntries(
      Object.values(RUN_KIND_ADDRESSES).map((k) => [k.collection, Counts]),
    ) as Record<
      (typeof RUN_KIND_ADDRESSES)[keyof typeof RUN_KIND_ADDRESSES]['collection'],
      typeof Counts
    >),
  })
  .openapi('Usage', INFERRED);
export type Usage = z.infer<typeof Usage>;

export const getUsageRoute = createRoute({
  method: 'get',
  path: '/v1/usage',
  operationId: 'getUsage',
  tags: ['Usage'],
  summary: 'Token usage and credit balance (inferred)',
  description: 'The balance, token sums over every run, and run counts per kind by status.',
  ...INFERRED,
  ...operationGuards({ versions: ['2026-09-27'], scope: 'usage:read' }),
  responses: {
    200: jsonResponse(Usage, "The account's usage."),
    ...errorResponses([400, 401, 403, 429]),
  },
});
