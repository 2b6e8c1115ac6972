/**
 * The routes every run kind shares (DESIGN.md section 7, "The run engine"; API document section
 * 1: runs "can be polled, listed, resumed and (where allowed) canceled; a finished run exposes a
 * downloadable archive and a per-file listing"), declared once as a factory: create, get, list,
 * cancel, resume, archive, files and logs of `/v1/<collection>`. A kind gives its address and its
 * request and resource schemas; a kind with documented routes of its own puts them in place of
 * the generated ones. All inferred (API document section 4.8, "not shown").
 */
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import {
  errorResponses,
  FileEntry,
  FilePageQuery,
  INFERRED,
  jsonResponse,
  listOf,
  operationGuards,
} from './common.js';
import { LogsLimit, pascal, RUN_STATUSES, type RunKindAddress, RunLogs } from './run-shapes.js';

/** The name of one of a kind's routes. */
export type RunRouteName =
  | 'create'
  | 'get'
  | 'list'
  | 'cancel'
  | 'resume'
  | 'archive'
  | 'files'
  | 'logs';

/** The routes of one kind, as the engine serves them (`api/runs.ts`). */
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
  /** The path parameter naming the run (`run_id` unless the kind names its own). */
  idParam: string;
  /** The 409 of the file listing of a run that has not succeeded. */
  notReadyCode: string;
  /** The routes the API document specifies: all `--strict` serves. */
  documented: readonly RunRouteName[];
  /** The create body's schema: control seeding takes it plus the seed fields. */
  createBody: z.ZodObject;
  /** The resource body's schema (events carry it too). */
  resource: z.ZodType;
}

/** What the factory needs to know of a kind: where it lives, and its schemas. */
export interface RunKindContract extends RunKindAddress {
  /** The create body (its own fields plus `options`, `label`, `webhook_metadata`). */
  createBody: z.ZodObject;
  /** The resource body. */
  resource: z.ZodType;
  /** What `409` on create means for this kind, when it has its own conflict. */
  createConflict?: string;
  /** What `400` on create can also answer for this kind (its own codes). */
  createBadRequest?: string;
  /** What a run of this kind yields, for descriptions. */
  yields: string;
  /** The path parameter naming a run, when not `run_id`. */
  idParam?: string;
}

/**
 * The eight routes of a kind: `/v1/<collection>` create and list, `/{run_id}` (or the kind's `idParam`) get, `/cancel`,
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
  const idParam = k.idParam ?? 'run_id';
  const params = z.object({
    [idParam]: z.string().openapi({
      param: { name: idParam, in: 'path' },
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
  const createNotes: Record<number, string> = {};
  if (k.createConflict) createNotes[409] = k.createConflict;
  if (k.createBadRequest) createNotes[400] = k.createBadRequest;
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
        ...errorResponses([400, 401, 402, 403, 409, 413, 429], createNotes),
      },
    }),
    get: createRoute({
      method: 'get',
      path: `${base}/{${idParam}}`,
      operationId: `get${one}`,
      summary: `Get a ${k.name.replace('_', ' ')} (inferred)`,
      description:
        "The run as it stands on the account's clock: every field present, null where there is nothing to say yet.",
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
      description:
        'Newest first, optionally of one `status`; page with `after` (the last id seen) while `has_more`.',
      ...common,
      ...guards('read'),
      request: {
        query: z.object({
          status: z.enum(RUN_STATUSES).optional(),
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
      path: `${base}/{${idParam}}/cancel`,
      operationId: `cancel${one}`,
      summary: `Cancel a ${k.name.replace('_', ' ')} (inferred): \`canceling\`, then \`canceled\``,
      description:
        'A queued or processing run goes to `canceling`, then `canceled`; a terminal run answers 409 `not_cancelable`.',
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
      path: `${base}/{${idParam}}/resume`,
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
      path: `${base}/{${idParam}}/archive`,
      operationId: `get${one}Archive`,
      summary: 'Download the archive `<id>.tar.gz` (inferred); HEAD and single Range requests',
      description:
        'The archive of a succeeded run; it extracts to `<id>/`. Its SHA-256 is `download.sha256` of the run and the `ETag`.',
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
      path: `${base}/{${idParam}}/files`,
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
      path: `${base}/{${idParam}}/logs`,
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
    resource: k.resource,
    idParam,
    notReadyCode: 'run_not_ready',
    documented: [],
  };
}
