/** `GET /v1/status` (inferred, DESIGN.md section 3): the status area, which needs no key. */
import { createRoute, z } from '@hono/zod-openapi';
import { INFERRED, jsonResponse, operationGuards } from '../../core/contract.js';
import { errorAnswers } from '../../core/error-answers.js';

/** The areas of API document section 1 after the run kinds', each a tag the status reports on. */
export const OTHER_AREAS = [
  {
    name: 'Scenarios',
    description:
      'The scenarios a scenario run executes, plus user-composed ones (robots, tasks, objects).',
  },
  {
    name: 'Objects and environments',
    description: 'User-supplied objects and environments for scenarios (beta).',
  },
  { name: 'Catalog', description: 'Robots, tasks, policies, hardware tiers, dataset inspection.' },
  { name: 'Operations', description: 'Poll any run by its id.' },
  { name: 'Webhooks', description: 'Endpoints that receive events, and the event log.' },
  { name: 'API keys', description: 'The key making the request.' },
  { name: 'Usage', description: 'Token usage and credit balance.' },
  {
    name: 'Requests',
    description: 'Request log: every call of the last 30 days, who made it, how it ended.',
  },
  { name: 'Status', description: 'Whether the service is up, part by part; needs no key.' },
] as const;

const Operational = z.enum(['operational']).openapi({
  description: 'Always `operational` in the emulator; a fault rule can make the call itself fail.',
});

export const ServiceStatus = z
  .object({
    object: z.literal('status'),
    status: Operational,
    components: z.array(z.object({ name: z.string(), status: Operational })),
  })
  .openapi('ServiceStatus', INFERRED);

export const getStatusRoute = createRoute({
  method: 'get',
  path: '/v1/status',
  operationId: 'getStatus',
  tags: ['Status'],
  summary: 'Whether the service is up, part by part; needs no key (inferred)',
  description:
    'API document section 5.1: the status area needs no key. An `Authorization` header is ignored.',
  ...INFERRED,
  ...operationGuards({ versions: ['2026-09-27'], keyless: true }),
  responses: {
    200: jsonResponse(ServiceStatus, 'The status.'),
    ...errorAnswers([400]),
  },
});
