/**
 * The event log (inferred; API document sections 1 and 6 name it, "event kinds, payload shape
 * ... not shown"; DESIGN.md section 3). Off under --strict.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { Evaluation, RUN_STATUSES } from '../kinds/evaluations/contract.js';
import {
  errorResponses,
  INFERRED,
  jsonResponse,
  listOf,
  Metadata,
  operationGuards,
  Timestamp,
} from './common.js';
import { RUN_KIND_NAMES } from './run-kinds.js';

/**
 * One type per status a run enters: `<kind>.<new status>`, for every run kind, twins included
 * (DESIGN.md section 7: "Events `<kind>.<status>` for every kind").
 */
export const EVENT_TYPES = [
  ...RUN_KIND_NAMES.flatMap((kind) => RUN_STATUSES.map((status) => `${kind}.${status}` as const)),
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The `type` filter: one type, or every type of one resource. */
export const EVENT_TYPE_FILTERS = [
  ...EVENT_TYPES,
  ...RUN_KIND_NAMES.map((kind) => `${kind}.*` as const),
] as const;

/** Any run kind's body as events carry it (each kind's own schema describes its fields). */
const AnyRun = z
  .object({ id: z.string(), object: z.string(), status: z.enum(RUN_STATUSES) })
  .catchall(z.unknown())
  .openapi('RunBody', INFERRED);

export const EventData = z
  .object({
    object: z.union([Evaluation, AnyRun]).openapi({
      description: 'The resource as the API showed it at the instant of the event.',
    }),
    previous_status: z.string().nullable().openapi({
      description: 'The status it left; null for a newly created evaluation.',
    }),
  })
  .openapi('EventData', INFERRED);

export const Event = z
  .object({
    id: z.string().openapi({ example: 'evt_01KDVDNA00000000000000000' }),
    object: z.literal('event'),
    type: z.enum(EVENT_TYPES),
    created_at: Timestamp.openapi({ description: 'The virtual instant of the transition.' }),
    data: EventData,
    webhook_metadata: Metadata.nullable().openapi({
      description: "The run's `webhook_metadata`.",
    }),
  })
  .openapi('Event', INFERRED);
export type Event = z.infer<typeof Event>;

export const EventList = listOf(Event, 'EventList');

export const EventIdParam = z.object({
  event_id: z.string().openapi({ param: { name: 'event_id', in: 'path' } }),
});

const guards = {
  tags: ['Webhooks'],
  ...INFERRED,
  // The event log belongs to the Webhooks area (API document section 1), so `webhooks:read`.
  ...operationGuards({ versions: ['2026-09-27'], scope: 'webhooks:read' }),
};

export const listEventsRoute = createRoute({
  method: 'get',
  path: '/v1/events',
  operationId: 'listEvents',
  summary: "The account's events, newest first (inferred)",
  description:
    "Every status transition of the account's runs of every kind, recorded once at its virtual instant. Events are recorded and listed, not delivered to webhook endpoints.",
  ...guards,
  request: {
    query: z.object({
      after: z.string().optional().openapi({
        description:
          "The id of the last event of the previous page; an id that is not one of the account's events answers 400 `parameter_invalid`.",
      }),
      limit: z.coerce.number().int().min(1).max(100).default(20),
      type: z.enum(EVENT_TYPE_FILTERS).optional().openapi({
        description:
          'One event type, or `<kind>.*` (`evaluation.*`, `augmentation.*`, ..., `twin.*`) for every type of a resource.',
      }),
      resource: z.string().optional().openapi({
        description: 'Only the events of this run id.',
      }),
    }),
  },
  responses: {
    200: jsonResponse(EventList, 'A page.'),
    ...errorResponses([400, 401, 403, 429]),
  },
});

export const getEventRoute = createRoute({
  method: 'get',
  path: '/v1/events/{event_id}',
  operationId: 'getEvent',
  summary: 'Get an event (inferred)',
  ...guards,
  request: { params: EventIdParam },
  responses: {
    200: jsonResponse(Event, 'The event.'),
    ...errorResponses([400, 401, 403, 404, 429]),
  },
});
