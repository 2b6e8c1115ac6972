import type { FaultRules } from '../areas/faults/fault-rules.js';
import type { CoverageCounts } from '../areas/requests/coverage-counts.js';
import type { Journal } from '../areas/requests/journal.js';
import type { WebhookDispatcher } from '../areas/webhooks/deliveries.js';
import type { ClockRegistry } from '../core/accounts/clock-registry.js';
import type { RateLimiter } from '../core/accounts/rate-limiter.js';
import type { Catalog } from '../core/catalog.js';
import type { ClockMode, VirtualClock } from '../core/clock.js';
import type { IdFactory } from '../core/id-factory.js';
import type { RouteTable } from '../core/route-table.js';
import type { Store } from '../core/sqlite/store.js';
import type { ScenarioFile } from '../world/scenario-file.js';
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

/** Everything a request handler may touch; built by `createEmulator()`, never module state. */
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
    loaded: ScenarioFile;
    summaries: Map<string, { stamp: string; description: string | null; error: string | null }>;
  };
  faults: FaultRules;
  journal: Journal;
  /** Outcomes per operation and account, for `GET /_control/coverage` (not persisted). */
  coverage: CoverageCounts;
  limiter: RateLimiter;
  /** Route templates and operation ids of the product API, filled when the app is built. */
  routes: RouteTable;
  /** Webhook deliveries of committed events (in memory). */
  webhooks: WebhookDispatcher;
}
