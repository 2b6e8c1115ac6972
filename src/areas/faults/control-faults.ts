/** Fault rules in the control API (DESIGN.md section 5). */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { toTimestamp } from '../../core/clock.js';
import { errorResponses, jsonResponse, Timestamp } from '../../core/contract.js';
import { json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import { FaultMatch, FaultRespond, FaultRuleInput, faultRuleView } from './fault-rules.js';
import { addFaultRule } from './install-faults.js';

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

/** A rule id `PUT` may install: `flt_` and letters, digits or `_`. */
const FaultId = z
  .string()
  .regex(/^flt_[A-Za-z0-9_]{1,64}$/, 'expected flt_ then 1 to 64 letters, digits or _')
  .openapi({
    param: { name: 'fault_id', in: 'path' },
    example: 'flt_01KDVDNA00M042VM4P0KZ422GM',
    description: "A rule's id; the example is the first a fresh emulator gives.",
  });

export const replaceFaultRoute = route({
  method: 'put',
  path: '/faults/{fault_id}',
  operationId: 'replaceFault',
  summary: 'Change a fault rule in place (same id and place in match order), or install it',
  description:
    "Replaces the rule's match, answer, `times`, `skip` and `probability` with the body (as `POST /_control/faults` takes it): it keeps its id, creation time and place in match order, and `hits` and `skipped` start again from zero. A rule of that id that does not exist is installed, last in match order (201).",
  request: { params: z.object({ fault_id: FaultId }), body: json(FaultRuleInput) },
  responses: {
    200: jsonResponse(FaultRuleView, 'Replaced.'),
    201: jsonResponse(FaultRuleView, 'Installed.'),
    ...errorResponses([400]),
  },
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
  app.openapi(replaceFaultRoute, (c) => {
    const { fault_id } = c.req.valid('param');
    const input = c.req.valid('json');
    const replaced = deps.faults.replaceRule(fault_id, input);
    if (replaced) return c.json(faultRuleView(replaced), 200);
    const at = toTimestamp(deps.systemClock.now());
    return c.json(faultRuleView(deps.faults.add(input, fault_id, at)), 201);
  });
}
