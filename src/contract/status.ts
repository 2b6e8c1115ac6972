/** `GET /v1/status` (inferred, DESIGN.md section 3): the status area, which needs no key. */
import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, INFERRED, jsonResponse, operationGuards } from './common.js';

/** The areas of API document section 1, in its order: the parts the status reports on. */
export const STATUS_COMPONENTS = [
  'Augmentations',
  'Training runs',
  'Twins',
  'RL runs',
  'Evaluations',
  'Scenario runs',
  'Scenarios',
  'Objects and environments',
  'Catalog',
  'Operations',
  'Webhooks',
  'API keys',
  'Usage',
  'Requests',
  'Status',
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
    ...errorResponses([400]),
  },
});
