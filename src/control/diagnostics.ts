/** Fault rules and the request journal in the control API (DESIGN.md section 5). */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { errorResponses, jsonResponse, Timestamp } from '../contract/common.js';
import { notFound } from '../errors.js';
import { toTimestamp } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import {
  FaultMatch,
  FaultRespond,
  FaultRuleInput,
  faultRuleView,
} from '../runtime/faults/fault-rules.js';
import type { JournalEntry, JournalFilter } from '../runtime/journal.js';
import { addFaultRule } from '../world/faults.js';
import { json, route } from './route-helpers.js';

const FaultRuleView = z
  .object({
    id: z.string(),
    object: z.literal('fault_rule'),
    match: FaultMatch,
    respond: FaultRespond,
    times: z.number().int().nullable(),
    skip: z.number().int(),
    probability: z.number().nullable(),
    hits: z.number().int().openapi({ description: 'Calls the rule answered.' }),
    skipped: z.number().int().openapi({ description: 'Matching calls let through by `skip`.' }),
    remaining: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Calls it will still answer; null without `times`.' }),
    created_at: Timestamp,
  })
  .openapi('ControlFaultRule');

const FaultParam = z.object({
  fault_id: z.string().openapi({ param: { name: 'fault_id', in: 'path' } }),
});

export const createFaultRoute = route({
  method: 'post',
  path: '/faults',
  operationId: 'createFault',
  summary: 'Install a fault rule: fail, delay or drop matching product calls',
  description:
    'Installs a rule that answers matching product calls with an error, a delay or a dropped connection: at most `times` times, after `skip` calls, with `probability`. Rules match in the order installed.',
  request: {
    body: json(FaultRuleInput),
  },
  responses: { 201: jsonResponse(FaultRuleView, 'Installed.'), ...errorResponses([400]) },
});

export const listFaultsRoute = route({
  method: 'get',
  path: '/faults',
  operationId: 'listFaults',
  summary: 'The fault rules in match order, with their hits and what remains',
  description:
    'Every installed fault rule in match order, with how often it fired, how many calls it let through, and how many it will still answer.',
  responses: {
    200: jsonResponse(
      z.object({ object: z.literal('list'), data: z.array(FaultRuleView) }),
      'The rules.',
    ),
  },
});

export const clearFaultsRoute = route({
  method: 'delete',
  path: '/faults',
  operationId: 'clearFaults',
  summary: 'Remove every fault rule',
  description: 'Removes every fault rule; answers how many were removed.',
  responses: { 200: jsonResponse(z.object({ deleted: z.number().int() }), 'Removed.') },
});

export const deleteFaultRoute = route({
  method: 'delete',
  path: '/faults/{fault_id}',
  operationId: 'deleteFault',
  summary: 'Remove one fault rule',
  description: 'Removes one fault rule by its id.',
  request: { params: FaultParam },
  responses: {
    200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), 'Removed.'),
    ...errorResponses([404]),
  },
});

const JournalQuery = z.object({
  method: z
    .string()
    .optional()
    .transform((m) => m?.toUpperCase()),
  route: z.string().optional().openapi({ example: '/v1/evaluations/{run_id}/resume' }),
  operation: z.string().optional(),
  status: z.coerce.number().int().optional(),
  code: z.string().optional(),
  account: z.string().optional(),
  key: z.string().optional(),
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'Virtual time: entries at or after it.' }),
});

const JournalEntryView = z
  .object({
    request_id: z.string(),
    method: z.string(),
    path: z.string(),
    route: z.string().nullable(),
    operation: z.string().nullable(),
    status: z.number().int().nullable(),
    code: z.string().nullable(),
    account_id: z.string().nullable(),
    key_id: z.string().nullable(),
    fault_id: z.string().nullable(),
    idempotent_replayed: z.boolean(),
    at: Timestamp.openapi({ description: "Virtual time on the account's clock." }),
    wall_at: Timestamp,
    duration_ms: z.number(),
  })
  .openapi('ControlJournalEntry');

export const listRequestsRoute = route({
  method: 'get',
  path: '/requests',
  operationId: 'listJournal',
  summary: 'The request journal, oldest first, filtered',
  description:
    'The product calls the emulator answered, oldest first, filtered by method, route, operation, status, error code, account, key or virtual time.',
  request: {
    query: JournalQuery.extend({
      limit: z.coerce.number().int().min(1).max(1_000_000).optional(),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        object: z.literal('list'),
        data: z.array(JournalEntryView),
        has_more: z.boolean(),
      }),
      'The entries.',
    ),
    ...errorResponses([400]),
  },
});

export const clearRequestsRoute = route({
  method: 'delete',
  path: '/requests',
  operationId: 'clearJournal',
  summary: 'Remove journal entries: all, or those matching the filters',
  description: 'Removes the journal entries matching the filters, or all of them without filters.',
  request: { query: JournalQuery },
  responses: {
    200: jsonResponse(z.object({ deleted: z.number().int() }), 'Removed.'),
    ...errorResponses([400]),
  },
});

/** The journal's filter: an absent field matches every entry. */
function toFilter({ since, ...rest }: z.output<typeof JournalQuery>): JournalFilter {
  return { ...rest, sinceMs: since === undefined ? undefined : Date.parse(since) };
}

const entryView = ({ at_ms, wall_ms, duration_ms, ...entry }: JournalEntry) => ({
  ...entry,
  at: toTimestamp(at_ms),
  wall_at: toTimestamp(wall_ms),
  duration_ms,
});

export function registerDiagnostics(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(createFaultRoute, (c) =>
    c.json(faultRuleView(addFaultRule(deps, c.req.valid('json'))), 201),
  );
  app.openapi(listFaultsRoute, (c) =>
    c.json({ object: 'list' as const, data: deps.faults.list().map(faultRuleView) }, 200),
  );
  app.openapi(clearFaultsRoute, (c) => c.json({ deleted: deps.faults.clear() }, 200));
  app.openapi(deleteFaultRoute, (c) => {
    const { fault_id } = c.req.valid('param');
    if (!deps.faults.remove(fault_id)) throw notFound('fault rule', fault_id, 'fault_id');
    return c.json({ id: fault_id, deleted: true as const }, 200);
  });

  app.openapi(listRequestsRoute, (c) => {
    const { limit, ...query } = c.req.valid('query');
    const all = deps.journal.filter(toFilter(query));
    const data = all.slice(0, limit).map(entryView);
    const has_more = limit !== undefined && all.length > limit;
    return c.json({ object: 'list' as const, data, has_more }, 200);
  });
  app.openapi(clearRequestsRoute, (c) =>
    c.json({ deleted: deps.journal.remove(toFilter(c.req.valid('query'))) }, 200),
  );
}
