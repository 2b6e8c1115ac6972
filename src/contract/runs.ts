/**
 * The routes every run kind shares (DESIGN.md section 7, "The run engine"; API document section
 * 1: runs "can be polled, listed, resumed and (where allowed) canceled; a finished run exposes a
 * downloadable archive and a per-file listing"), declared once as a factory: create, get, list,
 * cancel, resume, archive, files and logs of `/v1/<collection>`. Each kind's contract file gives
 * its request and resource schemas. All inferred (API document section 4.8, "not shown").
 */
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import {
  errorResponses,
  FileEntry,
  FilePageQuery,
  INFERRED,
  jsonResponse,
  listOf,
  Metadata,
  operationGuards,
  Timestamp,
} from './common.js';
import {
  Episodes,
  EVALUATION_STATUSES,
  EvaluationDownload,
  EvaluationError,
  RUN_STATUSES,
} from './evaluations.js';
import type { RunKindAddress } from './run-kinds.js';

export { RUN_STATUSES };

/** What the factory needs to know of a kind: where it lives, and its schemas. */
export interface RunKindContract extends RunKindAddress {
  /** The create body (its own fields plus `options`, `label`, `webhook_metadata`). */
  createBody: z.ZodObject;
  /** The resource body. */
  resource: z.ZodType;
  /** What `409` on create means for this kind, when it has its own conflict. */
  createConflict?: string;
  /** What a run of this kind yields, for descriptions. */
  yields: string;
}

const pascal = (snake: string) =>
  snake
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** The fields every run body shares, around the kind's own (`fields`). */
export function runResource<T extends z.ZodRawShape>(name: string, fields: T, description: string) {
  return z
    .object({
      id: z.string(),
      object: z.literal(name),
      status: z.enum(RUN_STATUSES),
      phase: z.string().nullable().openapi({ description: "One of the kind's phases, or null." }),
      progress: z.number().min(0).max(1),
      status_message: z.string().nullable(),
      ...fields,
      error: EvaluationError.nullable(),
      service_version: z.string().nullable(),
      options: Metadata,
      label: z.string().nullable(),
      result: z
        .record(z.string(), z.unknown())
        .nullable()
        .openapi({
          description: `What the run yields once it succeeded: ${description}`,
        }),
      download: EvaluationDownload.nullable(),
      tokens: z.object({ charged: z.number().int(), refunded: z.number().int() }),
      webhook_metadata: Metadata.nullable(),
      created_at: Timestamp,
      started_at: Timestamp.nullable(),
      completed_at: Timestamp.nullable(),
      links: z.record(z.string(), z.string()),
    })
    .openapi(pascal(name), INFERRED);
}

/** The fields every create body shares, after the kind's own. */
export const RunCreateCommon = {
  options: Metadata.optional().openapi({
    description:
      'Run options (free-form). The emulator reads `emulator`: `outcomes` (the outcome plan) and `durations_s`.',
  }),
  label: z.string().max(200).nullable().optional(),
  webhook_metadata: Metadata.nullable().optional(),
};

/** A step counter in a kind's body: done of total. */
export const StepCounter = Episodes;

export const RunLogs = (name: string) =>
  z
    .object({ id: z.string(), object: z.literal(`${name}_logs`), lines: z.array(z.string()) })
    .openapi(`${pascal(name)}Logs`, INFERRED);

/** The routes of one kind; evaluations give their own (documented) ones. */
export interface RunRoutes {
  create?: RouteConfig;
  get?: RouteConfig;
  list?: RouteConfig;
  cancel?: RouteConfig;
  resume: RouteConfig;
  archive?: RouteConfig;
  files: RouteConfig;
  logs: RouteConfig;
  /** The `object` of a file listing's items and of the logs body. */
  objects: { file: string; logs: string };
  /** How a 404 of the logs and files routes names the run (`sim run` for evaluations). */
  subresourceNoun: string;
  /** The create body's schema: control seeding takes it plus the seed fields. */
  createBody: z.ZodObject;
}

export const LogsLimit = z.coerce
  .number()
  .int()
  .min(1)
  .max(5000)
  .default(100)
  .openapi({ description: 'How many of the last lines to return, 1 to 5000.', ...INFERRED });

/**
 * The eight routes of a kind: `/v1/<collection>` create and list, `/{run_id}` get, `/cancel`,
 * `/resume`, `/archive`, `/files`, `/logs`.
 * @example const routes = runRoutes({ name: 'augmentation', collection: 'augmentations', ... })
 */
export function runRoutes(k: RunKindContract): RunRoutes {
  const one = pascal(k.name);
  const many = pascal(k.collection);
  const base = `/v1/${k.collection}`;
  const common = { tags: [k.tag], ...INFERRED };
  const guards = (verb: 'read' | 'write') =>
    operationGuards({
      versions: ['2026-09-27'],
      scope: `${k.scope}:${verb}`,
      ...(k.feature ? { feature: k.feature } : {}),
    });
  const params = z.object({
    run_id: z.string().openapi({
      param: { name: 'run_id', in: 'path' },
      description: `A ${k.name.replace('_', ' ')} id: \`${k.prefix}_...\`.`,
    }),
  });
  const FileItem = FileEntry.extend({ object: z.literal(`${k.name}_file`) }).openapi(
    `${one}File`,
    INFERRED,
  );
  const gzip = { 'application/gzip': { schema: z.string().openapi({ format: 'binary' }) } };
  const feature = k.feature
    ? ` Needs the account's \`${k.feature}\` feature (403 \`feature_not_enabled\`).`
    : '';
  return {
    create: createRoute({
      method: 'post',
      path: base,
      operationId: `create${one}`,
      summary: `Create a ${k.name.replace('_', ' ')} (inferred)`,
      description: `Queued at once; runs its phases on the account's virtual clock and yields ${k.yields}.${feature}`,
      ...common,
      ...guards('write'),
      request: {
        body: { required: true, content: { 'application/json': { schema: k.createBody } } },
      },
      responses: {
        201: jsonResponse(k.resource, 'The run, `queued`.'),
        ...errorResponses(
          [400, 401, 402, 403, 409, 413, 429],
          k.createConflict ? { 409: k.createConflict } : {},
        ),
      },
    }),
    get: createRoute({
      method: 'get',
      path: `${base}/{run_id}`,
      operationId: `get${one}`,
      summary: `Get a ${k.name.replace('_', ' ')} (inferred)`,
      ...common,
      ...guards('read'),
      request: { params },
      responses: {
        200: jsonResponse(k.resource, 'The run.'),
        ...errorResponses([400, 401, 403, 404, 429]),
      },
    }),
    list: createRoute({
      method: 'get',
      path: base,
      operationId: `list${many}`,
      summary: `List ${k.collection.replace('_', ' ')}, newest first (inferred)`,
      ...common,
      ...guards('read'),
      request: {
        query: z.object({
          status: z.enum(EVALUATION_STATUSES).optional(),
          after: z.string().optional().openapi({
            description:
              "The id of the last item of the previous page; an id that is not one of the account's runs of this kind answers 400 `parameter_invalid`.",
          }),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
      },
      responses: {
        200: jsonResponse(listOf(k.resource, `${one}List`), 'A page.'),
        ...errorResponses([400, 401, 403, 429]),
      },
    }),
    cancel: createRoute({
      method: 'post',
      path: `${base}/{run_id}/cancel`,
      operationId: `cancel${one}`,
      summary: `Cancel a ${k.name.replace('_', ' ')} (inferred): \`canceling\`, then \`canceled\``,
      ...common,
      ...guards('write'),
      request: { params },
      responses: {
        202: jsonResponse(k.resource, 'The run, `canceling`.'),
        ...errorResponses([400, 401, 403, 404, 409, 429], {
          409: 'A terminal run: `not_cancelable`.',
        }),
      },
    }),
    resume: createRoute({
      method: 'post',
      path: `${base}/{run_id}/resume`,
      operationId: `resume${one}`,
      summary: `Resume a failed or canceled ${k.name.replace('_', ' ')} (inferred)`,
      description:
        'Runs it again from its original request, as a new attempt; anything but a failed or canceled run with a resumable error answers 409 `not_resumable`.',
      ...common,
      ...guards('write'),
      request: { params },
      responses: {
        202: jsonResponse(k.resource, 'The run, back in `queued`.'),
        ...errorResponses([400, 401, 402, 403, 404, 409, 429], {
          409: '`not_resumable`, or `idempotency_key_reused`.',
        }),
      },
    }),
    archive: createRoute({
      method: 'get',
      path: `${base}/{run_id}/archive`,
      operationId: `get${one}Archive`,
      summary: 'Download the archive `<id>.tar.gz` (inferred); HEAD and single Range requests',
      ...common,
      ...guards('read'),
      request: { params },
      responses: {
        200: { description: 'The archive. `ETag` is its SHA-256.', content: gzip },
        206: { description: 'The requested byte range.', content: gzip },
        ...errorResponses([400, 401, 403, 404, 409, 416, 429], {
          409: 'The run has not succeeded: `run_not_ready`.',
        }),
      },
    }),
    files: createRoute({
      method: 'get',
      path: `${base}/{run_id}/files`,
      operationId: `list${one}Files`,
      summary: "Every file of a succeeded run's archive (inferred)",
      description: 'Paths relative to the run directory `<id>/`, in byte order.',
      ...common,
      ...guards('read'),
      request: { params, query: FilePageQuery },
      responses: {
        200: jsonResponse(listOf(FileItem, `${one}FileList`), 'A page of files.'),
        ...errorResponses([400, 401, 403, 404, 409, 429], {
          409: 'The run has not succeeded: `run_not_ready`.',
        }),
      },
    }),
    logs: createRoute({
      method: 'get',
      path: `${base}/{run_id}/logs`,
      operationId: `get${one}Logs`,
      summary: 'The tail of the log of a run (inferred)',
      description: 'Oldest line first; readable while the run runs and after it ends.',
      ...common,
      ...guards('read'),
      request: { params, query: z.object({ limit: LogsLimit }) },
      responses: {
        200: jsonResponse(RunLogs(k.name), 'The last `limit` lines.'),
        ...errorResponses([400, 401, 403, 404, 429]),
      },
    }),
    objects: { file: `${k.name}_file`, logs: `${k.name}_logs` },
    subresourceNoun: k.name.replace('_', ' '),
    createBody: k.createBody,
  };
}
