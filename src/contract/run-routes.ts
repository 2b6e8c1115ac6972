/**
 * The routes every run kind shares (DESIGN.md section 7, "The run engine"; API document section
 * 1: runs "can be polled, listed, resumed and (where allowed) canceled; a finished run exposes a
 * downloadable archive and a per-file listing"), declared once as a factory: create, get, list,
 * cancel, resume, archive, files and logs of `/v1/<collection>`. A kind gives its address and its
 * request and resource schemas; a kind with documented routes of its own puts them in place of
 * the generated ones. All inferred (API document section 4.8, "not shown").
 */
import { type RouteConfig, z } from '@hono/zod-openapi';
import { FileEntry, INFERRED, operationGuards } from './common.js';
import {
  cancelRunRoute,
  createRunRoute,
  getRunRoute,
  listRunsRoute,
  type RunRouteParts,
  resumeRunRoute,
  runArchiveRoute,
  runFilesRoute,
  runLogsRoute,
} from './run-route-builders.js';
import { pascal, type RunKindAddress } from './run-shapes.js';

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

/** The parts every route of a kind is built from: its names, path, guards and schemas. */
function routeParts(k: RunKindContract): RunRouteParts {
  const one = pascal(k.name);
  const idParam = k.idParam ?? 'run_id';
  const params = z.object({
    [idParam]: z.string().openapi({
      param: { name: idParam, in: 'path' },
      description: `A ${k.name.replace('_', ' ')} id: \`${k.prefix}_...\`.`,
    }),
  });
  const fileItem = FileEntry.extend({ object: z.literal(`${k.name}_file`) }).openapi(
    `${one}File`,
    INFERRED,
  );
  const createNotes: Record<number, string> = {};
  if (k.createConflict) createNotes[409] = k.createConflict;
  if (k.createBadRequest) createNotes[400] = k.createBadRequest;
  return {
    noun: k.name.replace('_', ' '),
    name: k.name,
    collection: k.collection,
    one,
    many: pascal(k.collection),
    base: `/v1/${k.collection}`,
    idParam,
    common: { tags: [k.tag], ...INFERRED },
    guards: (verb) =>
      operationGuards({
        versions: ['2026-09-27'],
        scope: `${k.scope}:${verb}`,
        ...(k.feature ? { feature: k.feature } : {}),
      }),
    params,
    fileItem,
    createBody: k.createBody,
    resource: k.resource,
    createNotes,
    yields: k.yields,
    feature: k.feature
      ? ` Needs the account's \`${k.feature}\` feature (403 \`feature_not_enabled\`).`
      : '',
  };
}

/**
 * The eight routes of a kind: `/v1/<collection>` create and list, `/{run_id}` (or the kind's `idParam`) get, `/cancel`,
 * `/resume`, `/archive`, `/files`, `/logs`.
 * @example const routes = runRoutes({ name: 'augmentation', collection: 'augmentations', ... })
 */
export function runRoutes(k: RunKindContract): RunRoutes {
  const parts = routeParts(k);
  return {
    create: createRunRoute(parts),
    get: getRunRoute(parts),
    list: listRunsRoute(parts),
    cancel: cancelRunRoute(parts),
    resume: resumeRunRoute(parts),
    archive: runArchiveRoute(parts),
    files: runFilesRoute(parts),
    logs: runLogsRoute(parts),
    objects: { file: `${k.name}_file`, logs: `${k.name}_logs` },
    subresourceNoun: parts.noun,
    createBody: k.createBody,
    resource: k.resource,
    idParam: parts.idParam,
    notReadyCode: 'run_not_ready',
    documented: [],
  };
}
