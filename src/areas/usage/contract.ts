/** `GET /v1/usage` (inferred, DESIGN.md sections 3 and 7): the account's balance and token use. */
import { createRoute, z } from '@hono/zod-openapi';
import { INFERRED, jsonResponse, operationGuards } from '../../core/contract.js';
import { errorAnswers } from '../../core/error-answers.js';
import { RUN_STATUSES } from '../../engine/contract/run-shapes.js';

const count = z.number().int().min(0);

const Counts = z.object({
  total: count,
  by_status: z
    .object(Object.fromEntries(RUN_STATUSES.map((s) => [s, count])))
    .openapi({ description: 'How many runs of the kind are in each status now; every status.' }),
});

/** How many runs of one kind are in each status. */
export interface RunCounts {
  total: number;
  by_status: Record<(typeof RUN_STATUSES)[number], number>;
}

/** The usage object; each kind's counts are keyed by its collection. */
export interface Usage {
  object: 'usage';
  token_balance: number;
  tokens: { charged: number; refunded: number; net: number };
  [collection: string]: unknown;
}

/** The usage route, with one count object per kind's collection, in the kinds' order. */
export function usageContract(collections: readonly string[]) {
  const UsageSchema = z
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
      ...Object.fromEntries(collections.map((c) => [c, Counts])),
    })
    .openapi('Usage', INFERRED);
  const getUsageRoute = createRoute({
    method: 'get',
    path: '/v1/usage',
    operationId: 'getUsage',
    tags: ['Usage'],
    summary: 'Token usage and credit balance (inferred)',
    description: 'The balance, token sums over every run, and run counts per kind by status.',
    ...INFERRED,
    ...operationGuards({ versions: ['2026-09-27'], scope: 'usage:read' }),
    responses: {
      200: jsonResponse(UsageSchema, "The account's usage."),
      ...errorAnswers([400, 401, 403, 429]),
    },
  });
  return { getUsageRoute };
}
