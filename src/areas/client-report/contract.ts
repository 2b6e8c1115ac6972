/** `GET /_control/client_report` (issue 38): the route and the report's shape. */
import { z } from '@hono/zod-openapi';
import { errorResponses, jsonResponse } from '../../core/contract.js';
import { route } from '../../core/control-routes.js';

const Evidence = z.object({
  request_id: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int().nullable().openapi({ description: 'Null: no answer (dropped, hung).' }),
  code: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  retry_after: z.number().nullable(),
  received_at: z.string().openapi({ description: 'Wall time the emulator received the request.' }),
  answered_at: z
    .string()
    .openapi({ description: 'Wall time it answered (or the connection ended).' }),
});

const Verdict = z.enum(['pass', 'fail', 'not_judged', 'info']);

const Finding = z.object({
  rule: z.string().openapi({ example: 'retry_after_honoured' }),
  title: z.string(),
  verdict: Verdict.openapi({
    description:
      '`not_judged`: too little evidence (never a failure); `info`: reported, not judged.',
  }),
  summary: z.string(),
  cases: z
    .array(
      z.object({
        verdict: z.enum(['pass', 'fail', 'info']),
        note: z.string(),
        requests: z.array(Evidence),
      }),
    )
    .openapi({ description: 'What shows it, failing cases first, at most 20.' }),
  cases_total: z.number().int(),
});

export const ClientReportView = z
  .object({
    object: z.literal('client_report'),
    account: z.string(),
    key: z.string().nullable(),
    summary: z.object({
      keys: z.number().int(),
      calls: z.number().int(),
      passed: z.number().int(),
      failed: z.number().int(),
      not_judged: z.number().int(),
      info: z.number().int(),
    }),
    keys: z.array(
      z.object({
        key: z.string(),
        calls: z.number().int(),
        retries: z.number().int(),
        findings: z.array(Finding),
      }),
    ),
  })
  .openapi('ControlClientReport', {
    example: {
      object: 'client_report',
      account: 'acct_00000000000000000000000001',
      key: null,
      summary: { keys: 1, calls: 1, passed: 0, failed: 1, not_judged: 0, info: 0 },
      keys: [
        {
          key: 'key_00000000000000000000000001',
          calls: 1,
          retries: 1,
          findings: [
            {
              rule: 'retry_after_honoured',
              title: 'No retry sooner than Retry-After',
              verdict: 'fail',
              summary: '1 of 1 retry came sooner than Retry-After asked.',
              cases: [
                {
                  verdict: 'fail',
                  note: 'a 429 rate_limit_exceeded asked 2 s; the retry came 4 ms later',
                  requests: [
                    {
                      request_id: 'req_01KDVDNA00CDQH3B95XWG7BCGY',
                      method: 'GET',
                      path: '/v1/keys/me',
                      status: 429,
                      code: 'rate_limit_exceeded',
                      idempotency_key: null,
                      retry_after: 2,
                      received_at: '2026-11-29T02:00:00.000Z',
                      answered_at: '2026-11-29T02:00:00.002Z',
                    },
                    {
                      request_id: 'req_01KDVDNA00Z9610P20TPNHST1Y',
                      method: 'GET',
                      path: '/v1/keys/me',
                      status: 200,
                      code: null,
                      idempotency_key: null,
                      retry_after: null,
                      received_at: '2026-11-29T02:00:00.006Z',
                      answered_at: '2026-11-29T02:00:00.008Z',
                    },
                  ],
                },
              ],
              cases_total: 1,
            },
          ],
        },
      ],
    },
  });

export const clientReportRoute = route({
  method: 'get',
  path: '/client_report',
  operationId: 'getClientReport',
  summary: "Each key's error handling, judged from its traffic in the journal",
  description:
    "Judges every key's calls of the account (or one key's) against the rules a careful client follows: retryable answers retried, boundedly, with growing and jittered waits; never sooner than `Retry-After`; no 4xx sent again unchanged; every retried POST with its first `Idempotency-Key`; no duplicate after an answer lost after the write; how long hung answers were waited for. Each finding carries the request ids and wall times that show it; one with too little evidence is `not_judged`, never failed. `format=markdown` or `Accept: text/markdown` answers Markdown.",
  request: {
    query: z.object({
      account: z.string().openapi({ example: 'acct_00000000000000000000000001' }),
      key: z.string().optional().openapi({ description: "Judge only this key's calls." }),
      format: z
        .enum(['json', 'markdown'])
        .optional()
        .openapi({ description: 'Default: `markdown` when `Accept` asks for `text/markdown`.' }),
    }),
  },
  responses: {
    200: {
      ...jsonResponse(ClientReportView, 'The report.'),
      content: {
        'application/json': { schema: ClientReportView },
        'text/markdown': { schema: z.string() },
      },
    },
    ...errorResponses([400, 404]),
  },
});
