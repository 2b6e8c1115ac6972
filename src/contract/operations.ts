/**
 * Operations (inferred; DESIGN.md section 7, API document section 4.8 "not shown"): any run of
 * any kind by its id, in one compact shape, for clients that poll runs without knowing their
 * kind. Off under --strict.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { EVALUATION_STATUSES } from '../kinds/evaluations/contract.js';
import { errorResponses, INFERRED, jsonResponse, operationGuards } from './common.js';
import { RUN_KIND_NAMES, type RunKindName } from './run-kinds.js';

export const OPERATION_KINDS = RUN_KIND_NAMES as [RunKindName, ...RunKindName[]];
export type OperationKind = (typeof OPERATION_KINDS)[number];

export const Operation = z
  .object({
    id: z.string().openapi({ example: 'eval_01KDVMMPE08W844SYEQB8P3ESJ' }),
    object: z.literal('operation'),
    kind: z.enum(OPERATION_KINDS),
    status: z
      .enum(EVALUATION_STATUSES)
      .openapi({ description: "The run's status, as its own resource shows it." }),
    progress: z.number().openapi({
      description: "0 to 1, as the run's own resource shows it.",
    }),
    links: z.object({ self: z.string().openapi({ description: 'The full resource.' }) }),
  })
  .openapi('Operation', INFERRED);

export const getOperationRoute = createRoute({
  method: 'get',
  path: '/v1/operations/{operation_id}',
  operationId: 'getOperation',
  tags: ['Operations'],
  summary: 'Get any run by its id (inferred)',
  description:
    "Any run by its id prefix: evaluations (`eval_`, legacy `srun_`), augmentations (`aug_`), training runs (`train_`), RL runs (`rl_`), scenario runs (`scnrun_`), twins (`twin_`). Each needs its kind's read scope (`evaluations:read`, `augmentations:read`, ...; twins also the account's `twins` feature), checked per kind, so the operation names none. Another account's id answers 404 like an unknown one.",
  ...INFERRED,
  ...operationGuards({ versions: ['2026-09-27'] }),
  request: {
    params: z.object({
      operation_id: z.string().openapi({ param: { name: 'operation_id', in: 'path' } }),
    }),
  },
  responses: {
    200: jsonResponse(Operation, 'The operation.'),
    ...errorResponses([400, 401, 403, 404, 429]),
  },
});
