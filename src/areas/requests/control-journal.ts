/** The request journal in the control API (DESIGN.md section 5): list, detail, clear. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { toTimestamp } from '../../core/clock.js';
import { errorResponses, jsonResponse, Timestamp } from '../../core/contract.js';
import { route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { invalidParam, MESSAGES, notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import type { JournalEntry, JournalFilter } from './journal.js';

/** The journal's filters, shared by the list, the stream and the clear. */
export const JournalQuery = z.object({
  method: z
    .string()
    .optional()
    .transform((m) => m?.toUpperCase()),
  route: z.string().optional().openapi({ example: '/v1/evaluations/{run_id}/resume' }),
  operation: z.string().optional(),
  status: z.coerce.number().int().optional(),
  status_class: z
    .enum(['2xx', '3xx', '4xx', '5xx', 'dropped'])
    .optional()
    .openapi({ description: 'Statuses by first digit, or `dropped` (no answer).' }),
  code: z.string().optional(),
  account: z.string().optional(),
  key: z.string().optional(),
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'Virtual time: entries at or after it.' }),
});

export const JournalEntryView = z
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
    wall_at: Timestamp.openapi({
      description: 'Wall time the answer was decided (or the connection ended).',
    }),
    duration_ms: z.number().openapi({ description: 'Wall ms from receipt to `wall_at`.' }),
    idempotency_key: z.string().nullable().openapi({ description: 'The `Idempotency-Key` sent.' }),
    body_digest: z.string().nullable().openapi({
      description: "The first 16 hex digits of the request body's sha256; null without a body.",
    }),
    retry_after: z
      .number()
      .nullable()
      .openapi({ description: "The seconds of the answer's `Retry-After`." }),
    fault_after: z.boolean().openapi({
      description: 'The fault struck after the call did its work: only the answer was lost.',
    }),
    work_status: z.number().int().nullable().openapi({
      description: 'What the work answered before a fault `after` replaced it.',
    }),
    hang_ms: z.number().nullable().openapi({
      description: 'A hang fault held the answer this long, then closed the connection.',
    }),
    client_closed: z.boolean().openapi({
      description: 'The client closed the connection before any answer.',
    }),
    resource_id: z
      .string()
      .nullable()
      .openapi({ description: 'The id of the resource a create made.' }),
  })
  .openapi('ControlJournalEntry');

export const listRequestsRoute = route({
  method: 'get',
  path: '/requests',
  operationId: 'listJournal',
  summary: 'The request journal, oldest first (or newest first), filtered, a page at a time',
  description:
    'The product calls the emulator answered, oldest first (`order=newest`: newest first), filtered by method, route, operation, status or status class, error code, account, key or virtual time; `after` (a request id) gives the page after it.',
  request: {
    query: JournalQuery.extend({
      limit: z.coerce.number().int().min(1).max(1_000_000).optional(),
      order: z.enum(['oldest', 'newest']).default('oldest'),
      after: z
        .string()
        .optional()
        .openapi({ description: 'A request id: the entries after it in this order.' }),
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

const DetailPart = z.object({
  headers: z.record(z.string(), z.string()).openapi({ description: 'Credentials masked.' }),
  body: z
    .string()
    .nullable()
    .openapi({ description: 'The JSON text, secrets masked, cut after 2,048 characters.' }),
});

export const getRequestRoute = route({
  method: 'get',
  path: '/requests/{request_id}',
  operationId: 'getJournalEntry',
  summary: 'One journaled call with its request and answer, secrets masked',
  description:
    'The entry and, for the newest 100 calls, its `detail`: the request (query, headers, JSON body), the answer (headers, JSON body; null for an archive or a dropped call) and the error envelope. `Authorization` and secret fields are masked, bodies cut after 2,048 characters. `detail` is null for older calls.',
  request: {
    params: z.object({
      request_id: z.string().openapi({ param: { name: 'request_id', in: 'path' } }),
    }),
  },
  responses: {
    200: jsonResponse(
      JournalEntryView.extend({
        detail: z
          .object({
            request: DetailPart.extend({ query: z.string() }),
            response: DetailPart.nullable(),
            error: z
              .unknown()
              .openapi({ description: 'The error envelope answered; null for a success.' }),
          })
          .nullable(),
      }).openapi('ControlJournalEntryDetail'),
      'The entry.',
    ),
    ...errorResponses([404]),
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
export function toFilter({
  since,
  status_class,
  ...rest
}: z.output<typeof JournalQuery>): JournalFilter {
  const sinceMs = since === undefined ? undefined : Date.parse(since);
  return { ...rest, sinceMs, statusClass: status_class };
}

export const entryView = ({ at_ms, wall_ms, duration_ms, ...entry }: JournalEntry) => ({
  ...entry,
  at: toTimestamp(at_ms),
  wall_at: toTimestamp(wall_ms),
  duration_ms,
});

export function registerJournal(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(listRequestsRoute, (c) => {
    const { limit, order, after, ...query } = c.req.valid('query');
    const page = deps.journal.page(toFilter(query), after, limit ?? Infinity, order);
    if (!page.found) throw invalidParam('after', MESSAGES.notInJournal(String(after)));
    const data = page.data.map(entryView);
    return c.json({ object: 'list' as const, data, has_more: page.hasMore }, 200);
  });
  app.openapi(getRequestRoute, async (c) => {
    const { request_id } = c.req.valid('param');
    const entry = deps.journal.find(request_id);
    if (!entry) throw notFound('journal entry', request_id, 'request_id');
    const detail = (await deps.journal.details.view(request_id)) ?? null;
    return c.json({ ...entryView(entry), detail }, 200);
  });
  app.openapi(clearRequestsRoute, (c) =>
    c.json({ deleted: deps.journal.remove(toFilter(c.req.valid('query'))) }, 200),
  );
}
