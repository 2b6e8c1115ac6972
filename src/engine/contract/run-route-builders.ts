/**
 * One builder per route every run kind shares (contract/run-routes.ts puts them together), each
 * from the parts of one kind's address. All inferred (API document section 4.8, "not shown").
 */
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import {
  FileEntry,
  FilePageQuery,
  INFERRED,
  jsonResponse,
  listOf,
  pageQuery,
} from '../../core/contract.js';
import { errorAnswers, RUN_START_LIMITS } from '../../core/error-answers.js';
import { ARCHIVE_HEADERS, archiveResponses } from './archive.js';
import type { RunRouteParts } from './run-route-parts.js';
import { LogsLimit, pascal, RUN_STATUSES, RunLogs } from './run-shapes.js';

/** A route of the kind: its own fields, then the kind's tag and the guards of `verb`. */
function kindRoute<R extends RouteConfig>(p: RunRouteParts, verb: 'read' | 'write', route: R) {
  return createRoute({ ...route, ...p.common, ...p.guards(verb) });
}

/** `POST /v1/<collection>`. */
export function createRunRoute(p: RunRouteParts) {
  return kindRoute(p, 'write', {
    method: 'post',
    path: p.base,
    operationId: `create${p.one}`,
    summary: `Create ${p.aRun} (inferred)`,
    description: `Queued at once; runs its phases on the account's virtual clock and yields ${p.yields}.${p.feature ? ` Needs the account's \`${p.feature}\` feature (403 \`feature_not_enabled\`).` : ''}`,
    request: {
      body: { required: true, content: { 'application/json': { schema: p.createBody } } },
    },
    responses: {
      201: jsonResponse(p.resource, 'The run, `queued`.'),
      ...errorAnswers([400, 401, 402, 403, 409, 413, 429], {
        ...p.createErrors,
        codes: { ...p.createErrors?.codes, 429: RUN_START_LIMITS },
      }),
    },
  });
}

/** `GET /v1/<collection>/{id}`. */
export function getRunRoute(p: RunRouteParts) {
  return kindRoute(p, 'read', {
    method: 'get',
    path: `${p.base}/{${p.idParam}}`,
    operationId: `get${p.one}`,
    summary: `Get ${p.aRun} (inferred)`,
    description:
      "The run as it stands on the account's clock: every field present, null where there is nothing to say yet.",
    request: { params: p.params },
    responses: {
      200: jsonResponse(p.resource, 'The run.'),
      ...errorAnswers([400, 401, 403, 404, 429], { resource: p.named() }),
    },
  });
}

/** `GET /v1/<collection>`. */
export function listRunsRoute(p: RunRouteParts) {
  return kindRoute(p, 'read', {
    method: 'get',
    path: p.base,
    operationId: `list${pascal(p.collection)}`,
    summary: `List ${p.plural}, newest first (inferred)`,
    description:
      'Newest first, optionally of one `status`; page with `after` (the last id seen) while `has_more`.',
    request: {
      query: z.object({
        status: z.enum(RUN_STATUSES).optional(),
        ...pageQuery(
          "The id of the last item of the previous page; an id that is not one of the account's runs of this kind answers 400 `parameter_invalid`.",
        ),
      }),
    },
    responses: {
      200: jsonResponse(listOf(p.resource, `${p.one}List`), 'A page.'),
      ...errorAnswers([400, 401, 403, 429]),
    },
  });
}

/** `POST /v1/<collection>/{id}/cancel`. */
export function cancelRunRoute(p: RunRouteParts) {
  return kindRoute(p, 'write', {
    method: 'post',
    path: `${p.base}/{${p.idParam}}/cancel`,
    operationId: `cancel${p.one}`,
    summary: `Cancel ${p.aRun} (inferred): \`canceling\`, then \`canceled\``,
    description:
      'A queued or processing run goes to `canceling`, then `canceled`; a terminal run answers 409 `not_cancelable`.',
    request: { params: p.params },
    responses: {
      202: jsonResponse(p.resource, 'The run, `canceling`.'),
      ...errorAnswers([400, 401, 403, 404, 409, 429], {
        codes: { 409: ['not_cancelable'] },
        resource: p.named(),
      }),
    },
  });
}

/** `POST /v1/<collection>/{id}/resume`. */
export function resumeRunRoute(p: RunRouteParts) {
  return kindRoute(p, 'write', {
    method: 'post',
    path: `${p.base}/{${p.idParam}}/resume`,
    operationId: `resume${p.one}`,
    summary: `Resume a failed or canceled ${p.singular} (inferred)`,
    description:
      'Runs it again from its original request, as a new attempt; anything but a failed or canceled run with a resumable error answers 409 `not_resumable`.',
    request: { params: p.params },
    responses: {
      202: jsonResponse(p.resource, 'The run, back in `queued`.'),
      ...errorAnswers([400, 401, 402, 403, 404, 409, 429], {
        codes: {
          409: [...new Set(['not_resumable', ...(p.createErrors?.codes?.[409] ?? [])])],
          429: RUN_START_LIMITS,
        },
        resource: p.named(),
      }),
    },
  });
}

/** `GET /v1/<collection>/{id}/archive`. */
export function runArchiveRoute(p: RunRouteParts) {
  const route = kindRoute(p, 'read', {
    method: 'get',
    path: `${p.base}/{${p.idParam}}/archive`,
    operationId: `get${p.one}Archive`,
    summary: 'Download the archive `<id>.tar.gz` (inferred); HEAD, Range and conditional requests',
    description:
      'The archive of a succeeded run; it extracts to `<id>/`. Its SHA-256 is `download.sha256` of the run and the `ETag`.',
    request: { params: p.params },
    responses: archiveResponses('run_not_ready', p.named()),
  });
  return { ...route, parameters: [...route.parameters, ...ARCHIVE_HEADERS] };
}

/** `GET /v1/<collection>/{id}/files`. */
export function runFilesRoute(p: RunRouteParts) {
  const fileItem = FileEntry.extend({ object: z.literal(`${p.name}_file`) }).openapi(
    `${p.one}File`,
    INFERRED,
  );
  return kindRoute(p, 'read', {
    method: 'get',
    path: `${p.base}/{${p.idParam}}/files`,
    operationId: `list${p.one}Files`,
    summary: "Every file of a succeeded run's archive (inferred)",
    description: 'Paths relative to the run directory `<id>/`, in byte order.',
    request: { params: p.params, query: FilePageQuery },
    responses: {
      200: jsonResponse(listOf(fileItem, `${p.one}FileList`), 'A page of files.'),
      ...errorAnswers([400, 401, 403, 404, 409, 429], {
        codes: { 409: ['run_not_ready'] },
        resource: p.named(p.noun),
      }),
    },
  });
}

/** `GET /v1/<collection>/{id}/logs`. */
export function runLogsRoute(p: RunRouteParts) {
  return kindRoute(p, 'read', {
    method: 'get',
    path: `${p.base}/{${p.idParam}}/logs`,
    operationId: `get${p.one}Logs`,
    summary: 'The tail of the log of a run (inferred)',
    description: 'Oldest line first; readable while the run runs and after it ends.',
    request: { params: p.params, query: z.object({ limit: LogsLimit }) },
    responses: {
      200: jsonResponse(RunLogs(p.name), 'The last `limit` lines.'),
      ...errorAnswers([400, 401, 403, 404, 429], { resource: p.named(p.noun) }),
    },
  });
}
