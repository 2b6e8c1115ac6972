/** `GET /_control/coverage`: each product operation's outcomes, and how often traffic got them. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { sweepViews } from '../../areas/faults/control-sweeps.js';
import { errorResponses, jsonResponse } from '../../core/contract.js';
import { route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import { coverageMarkdown } from './file.js';
import type { CoverageReport } from './report.js';

const Outcome = z.object({
  status: z.number().int(),
  code: z.string().nullable().openapi({ description: 'The error code; null for a success.' }),
  documented: z.boolean().openapi({
    description:
      'True when the API document names the outcome; false when the emulator infers the operation can give it.',
  }),
  seen: z.number().int().openapi({ description: 'Calls that got this outcome.' }),
});

const CoverageView = z
  .object({
    object: z.literal('coverage'),
    account: z.string().nullable().openapi({ description: 'The account counted; null: all.' }),
    operations: z.array(
      z.object({
        operation: z.string().openapi({ example: 'resumeEvaluation' }),
        method: z.string(),
        route: z.string().openapi({ example: '/v1/evaluations/{run_id}/resume' }),
        calls: z.number().int(),
        outcomes: z.array(Outcome),
        unlisted: z
          .array(
            z.object({
              status: z.number().int().nullable().openapi({ description: 'Null: dropped.' }),
              code: z.string().nullable(),
              seen: z.number().int(),
            }),
          )
          .openapi({ description: 'Outcomes seen that the operation does not list.' }),
      }),
    ),
    summary: z.object({
      operations: z.number().int(),
      exercised: z.number().int().openapi({ description: 'Operations called at least once.' }),
      outcomes: z.number().int(),
      seen: z.number().int().openapi({ description: 'Outcomes seen at least once.' }),
      unlisted: z.number().int(),
      calls: z.number().int(),
      unmatched_calls: z
        .number()
        .int()
        .openapi({ description: 'Calls to no operation of the document (unknown paths).' }),
    }),
  })
  .openapi('ControlCoverage');

export const coverageRoute = route({
  method: 'get',
  path: '/coverage',
  operationId: 'getCoverage',
  summary: 'Every outcome each product operation can answer, and how often the traffic got it',
  description:
    'For every operation of /openapi.json: each status and error code it can answer (documented, or inferred), and how many calls got it so far, for all accounts or one (`account`). Outcomes seen that the document does not list are under `unlisted`. A reset empties the counts.',
  request: {
    query: z.object({
      account: z
        .string()
        .optional()
        .openapi({ description: "Count only this account's calls; all calls without it." }),
      format: z.enum(['json', 'markdown']).default('json').openapi({
        description:
          '`markdown`: the report as `--coverage-report` writes its `.md` file (a table per operation, then the fault sweeps).',
      }),
    }),
  },
  responses: {
    200: {
      ...jsonResponse(CoverageView, 'The report.'),
      content: {
        'application/json': { schema: CoverageView },
        'text/markdown': { schema: z.string() },
      },
    },
    ...errorResponses([400, 404]),
  },
});

/** `coverage` reports on the served `/openapi.json` (composed by `createEmulator()`). */
export function registerCoverage(
  app: OpenAPIHono<AppEnv>,
  deps: Deps,
  coverage: (account?: string) => CoverageReport,
): void {
  app.openapi(coverageRoute, (c) => {
    const { account, format } = c.req.valid('query');
    if (account !== undefined && !deps.store.accounts.get(account)) {
      throw notFound('account', account, 'account');
    }
    if (format === 'markdown')
      return c.body(coverageMarkdown(coverage(account), sweepViews(deps, account)), 200, {
        'Content-Type': 'text/markdown; charset=utf-8',
      });
    return c.json(coverage(account), 200);
  });
}
