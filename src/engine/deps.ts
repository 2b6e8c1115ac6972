import type { ClockRegistry } from '../core/accounts/clock-registry.js';
import type { RateLimiter } from '../core/accounts/rate-limiter.js';
import type { Catalog } from '../core/catalog.js';
import type { ClockMode, VirtualClock } from '../core/clock.js';
import type { IdFactory } from '../core/id-factory.js';
import type { RouteTable } from '../core/route-table.js';
import type { Store } from '../core/sqlite/store.js';
import type { OutcomeRule } from './contract/outcomes.js';
import type { Engine } from './engine.js';
import type { Kinds } from './kind-registry.js';

export interface AppConfig {
  seed: string;
  /** The most work one settle window applies (`--settle-slice`): transitions, and ends' steps. */
  settleSlice: number;
  /** About how long a settle window may hold the event loop; Infinity: `settleSlice` alone. */
  settleWindowMs: number;
  /** Apply the per-operation version lists of the API document instead of accepting both. */
  strictVersions: boolean;
  /** Serve only the documented operations (plus /_control). */
  strict: boolean;
  /** Serve /_control at all. */
  control: boolean;
  /** When set, /_control needs `X-Control-Token: <token>`. */
  controlToken: string | null;
  /** Origins besides the emulator's own a browser may call /_control from (`*`: any). */
  controlAllowOrigins: readonly string[];
  /** Origins a browser may call the product API from (`*`: any); empty: no CORS (http/cors.ts). */
  cors: readonly string[];
  /** Host names `/_control` and `/docs` answer (http/host-check.ts). */
  allowedHosts: readonly string[];
  /** Clock mode of accounts created without one. */
  clockMode: ClockMode;
  /** Emulator version, reported by /_control/health. */
  version: string;
  /** Entries the request journal keeps (oldest dropped first); 0 keeps none. */
  journalSize: number;
  /** Send webhook deliveries (`--no-webhooks` turns them off). */
  webhooks: boolean;
  /** The most snapshots kept at once (`--snapshot-limit`). */
  snapshotLimit: number;
  /** The most bytes the snapshots' copies take together (`--snapshot-space`, in MiB). */
  snapshotSpaceBytes: number;
}

/**
 * What the engine reads of the loaded scenario. The world says it is a whole scenario file
 * (areas/scenarios/scenario-file.ts adds `extends ScenarioFile` to this interface).
 */
export interface LoadedScenario {
  name: string;
  outcome_rules?: OutcomeRule[] | undefined;
}

/**
 * Everything a request handler may touch; built by `createEmulator()`, never module state. This
 * declares what the core and the engine need; each area above adds its own part in its own
 * folder, as Hono's `ContextVariableMap` is extended, e.g. areas/faults/fault-rules.ts:
 * `declare module '../../engine/deps.js' { interface Deps { faults: FaultRules } }`.
 */
export interface Deps {
  config: AppConfig;
  store: Store;
  /** The registered run kinds (`src/kinds/index.ts`): every list of kinds derives from it. */
  kinds: Kinds;
  clocks: ClockRegistry;
  /** The run engine's state: settles in progress, owed archives, its workers (engine.ts). */
  engine: Engine;
  ids: IdFactory;
  catalog: Catalog;
  /** The emulator-wide clock: request ids and anything not owned by an account. */
  systemClock: VirtualClock;
  /** Wall ms at start, for uptime. */
  startedAt: number;
  /**
   * The folders scenario names are looked up in, first match first, the loaded scenario, and
   * what `GET /_control/scenarios` last found in each file, by path (world/scenario-summaries.ts).
   */
  scenarios: {
    dirs: readonly string[];
    loaded: LoadedScenario;
    summaries: Map<string, { stamp: string; description: string | null; error: string | null }>;
  };
  /** Requests per minute admitted per account (`requests_per_minute`). */
  limiter: RateLimiter;
  /** Route templates and operation ids of the product API, filled when the app is built. */
  routes: RouteTable;
}

declare module '../core/env.js' {
  /** A request's `deps` (core/env.ts names the rest of a request's variables). */
  interface AppVariables {
    deps: Deps;
  }
}
