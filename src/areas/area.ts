import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../core/env.js';
import type { Database } from '../core/sqlite/sqlite.js';
import type { Repositories } from '../core/sqlite/store.js';
import type { Deps } from '../engine/deps.js';
import type { Kinds } from '../engine/kind-registry.js';
import type { BundleSettings } from './bundles/bundle-contract.js';
import type { BundleRecorder } from './bundles/recorder.js';

/** What an area's product routes are registered with (http/app.ts). */
export interface ProductContext {
  kinds: Kinds;
  /** False under `--strict`: only the API document's operations are served. */
  inferred: boolean;
  /** The areas served, by their routes' tags, filled once every area registered (`GET /v1/status`). */
  served: ReadonlySet<string>;
}

/** What control routes are registered with (http/control-app.ts). */
export interface ControlContext {
  deps: Deps;
  /** Replay bundles: the recording and the settings a bundle records. */
  bundles: { recorder: BundleRecorder; settings: () => BundleSettings };
}

/**
 * Some of the control API's routes, named: the name places them among the others
 * (http/control-app.ts's `CONTROL_ORDER`; a name not there comes after those).
 */
export interface ControlPart {
  name: string;
  register(app: OpenAPIHono<AppEnv>, context: ControlContext): void;
}

/**
 * What the layer above plugs into an emulator's control API (tools/emulator.ts: the inspector and
 * the coverage report), given the emulator's product app, its parts and its served `/openapi.json`.
 */
export type ControlPlugIns = (built: {
  app: OpenAPIHono<AppEnv>;
  deps: Deps;
  productDocument: () => unknown;
}) => readonly ControlPart[];

/** One area of the emulator, as `src/areas/index.ts` lists it (docs/development.md). */
export interface Area {
  name: string;
  /** Registers its product routes (`/v1/...`), in the order the app serves them. */
  product?(app: OpenAPIHono<AppEnv>, context: ProductContext): void;
  /** Its control routes (`/_control/...`). */
  control?: readonly ControlPart[];
  /** Its repositories over the store's database (its store modules add them to `Repositories`). */
  repositories?(db: Database): Partial<Repositories>;
}
