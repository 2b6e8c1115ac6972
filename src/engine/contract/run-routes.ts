/**
 * The routes every run kind shares (DESIGN.md section 7, "The run engine"; API document section
 * 1: runs "can be polled, listed, resumed and (where allowed) canceled; a finished run exposes a
 * downloadable archive and a per-file listing"), declared once as a factory. A kind with
 * documented routes of its own puts them in place of the generated ones.
 */
import type { RouteConfig, z } from '@hono/zod-openapi';
import {
  cancelRunRoute,
  createRunRoute,
  getRunRoute,
  listRunsRoute,
  resumeRunRoute,
  runArchiveRoute,
  runFilesRoute,
  runLogsRoute,
} from './run-route-builders.js';
import { type RunKindContract, routeParts } from './run-route-parts.js';

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

/** An object schema, as a route's path or query takes, whose output is `O`. */
type ObjectOf<O> = z.ZodObject & z.ZodType<O>;
/** The path parameter naming the run (`run_id`, or the kind's `idParam`). */
export type RunParams = ObjectOf<Record<string, string>>;
/** A route of a kind, with the inputs the engine's handler of it reads (`routes/runs.ts`). */
export type RunRoute<Request> = Omit<RouteConfig, 'request'> & { request: Request };

/** The routes of one kind, as the engine serves them (`routes/runs.ts`). */
export interface RunRoutes {
  create?: RunRoute<{
    body: { content: { 'application/json': { schema: z.ZodType<Record<string, unknown>> } } };
  }>;
  get?: RunRoute<{ params: RunParams }>;
  list?: RunRoute<{ query: ObjectOf<{ status?: string; after?: string; limit: number }> }>;
  cancel?: RunRoute<{ params: RunParams }>;
  resume: RunRoute<{ params: RunParams }>;
  archive?: RunRoute<{ params: RunParams }>;
  files: RunRoute<{ params: RunParams; query: ObjectOf<{ after?: string; limit: number }> }>;
  logs: RunRoute<{ params: RunParams; query: ObjectOf<{ limit: number }> }>;
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
  /** The resource body's schema (events carry it too); seeding checks a `result` by its own. */
  resource: z.ZodObject;
}

/**
 * The eight routes of a kind: `/v1/<collection>` create and list, `/{run_id}` (or the kind's
 * `idParam`) get, `/cancel`, `/resume`, `/archive`, `/files`, `/logs`.
 * @example const routes = runRoutes({ name: 'widget', collection: 'widgets', ... })
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
