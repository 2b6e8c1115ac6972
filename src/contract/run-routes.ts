/**
 * The routes of one run kind, as the engine serves them (`api/runs.ts`): made by `runRoutes`
 * (`contract/runs.ts`), or given by a kind with documented routes of its own (evaluations,
 * the twins' file listing).
 */
import type { RouteConfig, z } from '@hono/zod-openapi';

/** The name of one of a kind's routes. */
export type RunRouteName = Exclude<
  keyof RunRoutes,
  'objects' | 'subresourceNoun' | 'idParam' | 'notReadyCode' | 'documented' | 'createBody'
>;

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
  /** The path parameter naming the run (`run_id`; `twin_id` for twins, as documented). */
  idParam: string;
  /** The 409 of the file listing of a run that has not succeeded. */
  notReadyCode: 'run_not_ready' | 'twin_not_ready';
  /** The routes the API document specifies: all `--strict` serves. */
  documented: readonly RunRouteName[];
  /** The create body's schema: control seeding takes it plus the seed fields. */
  createBody: z.ZodObject;
}
