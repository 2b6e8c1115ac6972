/**
 * The event log (inferred; API document sections 1 and 6 name it, "event kinds, payload shape
 * ... not shown"; DESIGN.md section 3). Off under --strict. Its types are `<kind>.<status>` for
 * every registered kind, so the contract is made from the kinds (`eventContract`).
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  INFERRED,
  jsonResponse,
  listOf,
  Metadata,
  operationGuards,
  pageQuery,
  Timestamp,
} from '../../core/contract.js';
import { EXAMPLE_ULID, errorAnswers } from '../../core/error-answers.js';
import { RUN_STATUSES } from '../../engine/contract/run-shapes.js';
import { ENDPOINT_EVENT_TYPES, WebhookEndpoint } from '../webhooks/contract.js';

/** What the event contract needs of each kind: its name and its resource body. */
export interface EventKind {
  name: string;
  resource: z.ZodType;
}

/** Any run kind's body as events carry it (each kind's own schema describes its fields). */
const AnyRun = z
  .object({ id: z.string(), object: z.string(), status: z.enum(RUN_STATUSES) })
  .catchall(z.unknown())
  .openapi('RunBody', INFERRED);

const EventIdParam = z.object({
  event_id: z.string().openapi({ param: { name: 'event_id', in: 'path' } }),
});

const guards = {
  tags: ['Webhooks'],
  ...INFERRED,
  // The event log belongs to the Webhooks area (API document section 1), so `webhooks:read`.
  ...operationGuards({ versions: ['2026-09-27'], scope: 'webhooks:read' }),
};

/** An event of these kinds: its `type` one of `types`, its `data.object` one of their bodies. */
function eventSchema(kinds: readonly EventKind[], types: string[]) {
  const resources = [...kinds.map((k) => k.resource), WebhookEndpoint];
  const EventData = z
    .object({
      object: z.union([...resources, AnyRun]).openapi({
        description: 'The resource as the API showed it at the instant of the event.',
      }),
      previous_status: z.string().nullable().openapi({
        description:
          'The status it left; null for a newly created run (`enabled` for a disabled endpoint).',
      }),
    })
    .openapi('EventData', INFERRED);
  return z
    .object({
      id: z.string().openapi({ example: 'evt_01KDVDNA00000000000000000' }),
      object: z.literal('event'),
      type: z.enum(types as [string, ...string[]]),
      created_at: Timestamp.openapi({ description: 'The virtual instant of the transition.' }),
      data: EventData,
      webhook_metadata: Metadata.nullable().openapi({
        description: "The run's `webhook_metadata`.",
      }),
    })
    .openapi('Event', INFERRED);
}

/**
 * The event schemas and routes for these kinds: one type per status a run enters,
 * `<kind>.<new status>` (DESIGN.md section 7: "Events `<kind>.<status>` for every kind").
 * @example const { listEventsRoute } = eventContract([{ name: 'evaluation', resource }])
 */
export function eventContract(kinds: readonly EventKind[]) {
  const types = [
    ...kinds.flatMap((k) => RUN_STATUSES.map((status) => `${k.name}.${status}`)),
    ...ENDPOINT_EVENT_TYPES,
  ];
  const filters = [
    ...types,
    ...[...kinds.map((k) => k.name), 'webhook_endpoint'].map((n) => `${n}.*`),
  ];
  const EventSchema = eventSchema(kinds, types);
  const listEventsRoute = createRoute({
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    summary: "The account's events, newest first (inferred)",
    description:
      "Every status transition of the account's runs of every kind, recorded once at its virtual instant, and each endpoint it disabled; each is also delivered to the account's endpoints that subscribe to its type.",
    ...guards,
    request: {
      query: z.object({
        ...pageQuery(
          "The id of the last event of the previous page; an id that is not one of the account's events answers 400 `parameter_invalid`.",
        ),
        type: z
          .enum(filters as [string, ...string[]])
          .optional()
          .openapi({
            description: `One event type, or \`<kind>.*\` (${kinds.map((k) => `\`${k.name}.*\``).join(', ')}, \`webhook_endpoint.*\`) for every type of a resource.`,
          }),
        resource: z.string().optional().openapi({
          description: 'Only the events of this run (or endpoint) id.',
        }),
      }),
    },
    responses: {
      200: jsonResponse(listOf(EventSchema, 'EventList'), 'A page.'),
      ...errorAnswers([400, 401, 403, 429]),
    },
  });
  const getEventRoute = createRoute({
    method: 'get',
    path: '/v1/events/{event_id}',
    operationId: 'getEvent',
    summary: 'Get an event (inferred)',
    ...guards,
    request: { params: EventIdParam },
    responses: {
      200: jsonResponse(EventSchema, 'The event.'),
      ...errorAnswers([400, 401, 403, 404, 429], {
        resource: { noun: 'event', id: `evt_${EXAMPLE_ULID}`, param: 'event_id' },
      }),
    },
  });
  return { types, listEventsRoute, getEventRoute };
}
