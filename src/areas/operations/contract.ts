/** Operations (inferred, DESIGN.md section 7): any run by its id, for clients polling any kind. */
import { createRoute, z } from '@hono/zod-openapi';
import { INFERRED, jsonResponse, operationGuards } from '../../core/contract.js';
import { EXAMPLE_ULID, errorAnswers } from '../../core/error-answers.js';
import { RUN_STATUSES, type RunKindAddress } from '../../engine/contract/run-shapes.js';

/** A kind's id prefixes for the description, legacy ones marked. */
const prefixes = (k: RunKindAddress) =>
  [`\`${k.prefix}_\``, ...(k.legacyPrefixes ?? []).map((p) => `legacy \`${p}_\``)].join(', ');

/** @example const { getOperationRoute } = operationContract(kinds.list.map((r) => r.kind)) */
export function operationContract(kinds: readonly RunKindAddress[]) {
  const names = kinds.map((k) => k.name) as [string, ...string[]];
  const Operation = z
    .object({
      id: z.string().openapi({ example: 'eval_01KDVMMPE08W844SYEQB8P3ESJ' }),
      object: z.literal('operation'),
      kind: z.enum(names),
      status: z
        .enum(RUN_STATUSES)
        .openapi({ description: "The run's status, as its own resource shows it." }),
      progress: z.number().openapi({
        description: "0 to 1, as the run's own resource shows it.",
      }),
      links: z.object({ self: z.string().openapi({ description: 'The full resource.' }) }),
    })
    .openapi('Operation', INFERRED);
  const byPrefix = kinds.map((k) => `${k.tag} (${prefixes(k)})`).join(', ');
  const readScopes = kinds
    .slice(0, 2)
    .map((k) => `\`${k.scope}:read\``)
    .join(', ');
  const features = kinds
    .filter((k) => k.feature)
    .map((k) => `${k.tag} also the account's \`${k.feature}\` feature`)
    .join('; ');
  const getOperationRoute = createRoute({
    method: 'get',
    path: '/v1/operations/{operation_id}',
    operationId: 'getOperation',
    tags: ['Operations'],
    summary: 'Get any run by its id (inferred)',
    description: `Any run by its id prefix: ${byPrefix}. Each needs its kind's read scope (${readScopes}, ...${features ? `; ${features}` : ''}), checked per kind, so the operation names none. Another account's id answers 404 like an unknown one.`,
    ...INFERRED,
    ...operationGuards({ versions: ['2026-09-27'] }),
    request: {
      params: z.object({
        operation_id: z.string().openapi({ param: { name: 'operation_id', in: 'path' } }),
      }),
    },
    responses: {
      200: jsonResponse(Operation, 'The operation.'),
      ...errorAnswers([400, 401, 403, 404, 429], {
        resource: { noun: 'operation', id: `eval_${EXAMPLE_ULID}`, param: 'operation_id' },
      }),
    },
  });
  return { getOperationRoute };
}
