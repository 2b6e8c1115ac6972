/** Fault sweeps in the control API (issue 38): arm every (operation x fault) pair once, read the matrix. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { toTimestamp } from '../../core/clock.js';
import { errorResponses, jsonResponse, Timestamp } from '../../core/contract.js';
import { json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { invalidParam, MESSAGES, notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import { MAX_HANG_MS } from './contract.js';
import { CELL_OUTCOMES, sweepView } from './sweep-matrix.js';
import { SWEEP_FAULTS, sweepRespond } from './sweeps.js';

const SweepInput = z
  .object({
    account: z.string().optional().openapi({ description: "Strike only this account's calls." }),
    operations: z.array(z.string().min(1)).min(1).max(500).optional().openapi({
      description: 'The operations armed (operation ids); default: every operation called.',
    }),
    faults: z
      .array(z.string())
      .min(1)
      .max(32)
      .default(SWEEP_FAULTS)
      .refine((list) => list.every((f) => sweepRespond(f, 0) !== null), {
        message:
          'each fault is a fault status (429, 502, ...), `drop` or `hang`, optionally with `_after` (500, 502, 503, 504, drop, hang)',
      })
      .refine((list) => new Set(list).size === list.length, { message: 'each fault once' })
      .openapi({ description: 'In the order each operation meets them.', example: SWEEP_FAULTS }),
    hang_ms: z.number().int().min(0).max(MAX_HANG_MS).default(5000).openapi({
      description: 'How long `hang` and `hang_after` hold a call (wall ms).',
    }),
  })
  .strict()
  .openapi('ControlSweepInput', {
    example: { account: 'acct_00000000000000000000000001', faults: SWEEP_FAULTS },
  });

const Outcome = z.enum(CELL_OUTCOMES);
const SweepView = z
  .object({
    id: z.string(),
    object: z.literal('sweep'),
    account: z.string().nullable(),
    operations: z.array(z.string()).nullable(),
    faults: z.array(z.string()),
    hang_ms: z.number().int(),
    created_at: Timestamp,
    summary: z.object({
      operations: z.number().int(),
      cells: z.number().int(),
      met: z.number().int(),
      recovered: z.number().int(),
      gave_up: z.number().int(),
      duplicated_write: z.number().int(),
      not_reached: z.number().int(),
      unknown: z.number().int(),
    }),
    matrix: z.array(
      z.object({
        operation: z.string(),
        cells: z.array(
          z.object({
            fault: z.string(),
            outcome: Outcome.openapi({
              description:
                '`recovered`: a later attempt of the same call succeeded; `gave_up`: none did; `duplicated_write`: the work of a lost answer was done again; `not_reached`: no call met it; `unknown`: the journal no longer holds the call.',
            }),
            request_id: z.string().nullable().openapi({ description: 'The call that met it.' }),
            next_request_id: z.string().nullable(),
          }),
        ),
      }),
    ),
  })
  .openapi('ControlSweep', {
    example: {
      id: 'swp_01KDVDNA00S5FTMCE8PG9Y8PE0',
      object: 'sweep',
      account: 'acct_00000000000000000000000001',
      operations: ['getCurrentKey'],
      faults: ['503', 'drop'],
      hang_ms: 5000,
      created_at: '2026-01-01T00:00:00.000Z',
      summary: {
        operations: 1,
        cells: 2,
        met: 2,
        recovered: 1,
        gave_up: 1,
        duplicated_write: 0,
        not_reached: 0,
        unknown: 0,
      },
      matrix: [
        {
          operation: 'getCurrentKey',
          cells: [
            {
              fault: '503',
              outcome: 'recovered',
              request_id: 'req_01KDVDNA00CDQH3B95XWG7BCGY',
              next_request_id: 'req_01KDVDNA00Z9610P20TPNHST1Y',
            },
            {
              fault: 'drop',
              outcome: 'gave_up',
              request_id: 'req_01KDVDNA00M042VM4P0KZ422GM',
              next_request_id: null,
            },
          ],
        },
      ],
    },
  });

const SweepParam = z.object({
  sweep_id: z.string().openapi({
    param: { name: 'sweep_id', in: 'path' },
    example: 'swp_01KDVDNA00S5FTMCE8PG9Y8PE0',
  }),
});

export const createSweepRoute = route({
  method: 'post',
  path: '/sweeps',
  operationId: 'createSweep',
  summary: 'Arm every (operation x fault) pair once, so one run of a suite meets each failure',
  description:
    'Each call of an armed operation (of `account`, if given) takes the next fault of `faults`; the call after a struck one passes, so a retry can recover; the one after that takes the next fault. The same calls in the same order meet the same faults.',
  request: { body: json(SweepInput) },
  responses: { 201: jsonResponse(SweepView, 'Armed.'), ...errorResponses([400, 404]) },
});

export const listSweepsRoute = route({
  method: 'get',
  path: '/sweeps',
  operationId: 'listSweeps',
  summary: 'The sweeps, oldest first, each with its matrix',
  description: 'Every sweep armed since the last full reset, with its matrix as it stands.',
  responses: {
    200: jsonResponse(
      z.object({ object: z.literal('list'), data: z.array(SweepView) }),
      'The sweeps.',
    ),
  },
});

export const getSweepRoute = route({
  method: 'get',
  path: '/sweeps/{sweep_id}',
  operationId: 'getSweep',
  summary:
    'A sweep and its matrix: per operation and fault, whether it was met and what the client did next',
  description:
    'Per operation (in the order given, or first called) and fault: the call that met it and what the client did next, read from the journal.',
  request: { params: SweepParam },
  responses: { 200: jsonResponse(SweepView, 'The sweep.'), ...errorResponses([404]) },
});

export const deleteSweepRoute = route({
  method: 'delete',
  path: '/sweeps/{sweep_id}',
  operationId: 'deleteSweep',
  summary: 'Disarm and remove a sweep',
  description: 'Removes the sweep: its faults no longer strike.',
  request: { params: SweepParam },
  responses: {
    200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), 'Removed.'),
    ...errorResponses([404]),
  },
});

/** Every sweep's view as it stands, or those of one account. */
export function sweepViews(deps: Deps, account?: string) {
  const entries = deps.journal.filter(account === undefined ? {} : { account });
  return deps.faults.sweeps
    .list()
    .filter((s) => account === undefined || s.account === null || s.account === account)
    .map((s) => sweepView(s, entries));
}

export function registerSweeps(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(createSweepRoute, (c) => {
    const body = c.req.valid('json');
    if (body.account !== undefined && !deps.store.accounts.get(body.account))
      throw notFound('account', body.account, 'account');
    const known = deps.routes.operations();
    const unknown = body.operations?.find((op) => !known.includes(op));
    if (unknown !== undefined) throw invalidParam('operations', MESSAGES.unknownOperation(unknown));
    const now = deps.systemClock.now();
    const sweep = deps.faults.sweeps.add(
      {
        account: body.account ?? null,
        operations: body.operations ?? null,
        faults: body.faults,
        hangMs: body.hang_ms,
      },
      deps.ids.next('swp', 'sweeps', now),
      toTimestamp(now),
    );
    return c.json(sweepView(sweep, []), 201);
  });
  app.openapi(listSweepsRoute, (c) =>
    c.json({ object: 'list' as const, data: sweepViews(deps) }, 200),
  );
  app.openapi(getSweepRoute, (c) => {
    const { sweep_id } = c.req.valid('param');
    const sweep = deps.faults.sweeps.get(sweep_id);
    if (!sweep) throw notFound('sweep', sweep_id, 'sweep_id');
    return c.json(sweepView(sweep, deps.journal.filter({})), 200);
  });
  app.openapi(deleteSweepRoute, (c) => {
    const { sweep_id } = c.req.valid('param');
    if (!deps.faults.sweeps.remove(sweep_id)) throw notFound('sweep', sweep_id, 'sweep_id');
    return c.json({ id: sweep_id, deleted: true as const }, 200);
  });
}
