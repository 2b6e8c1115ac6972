import type { ServiceVersion } from '../contract/common.js';
import type { Catalog } from '../domain/catalog.js';
import type { Account, ApiKeyRecord } from '../domain/records.js';
import type { ClockMode, VirtualClock } from '../runtime/clock.js';
import type { ClockRegistry } from '../runtime/clock-registry.js';
import type { IdFactory } from '../runtime/id-factory.js';
import type { Store } from '../store/store.js';
import type { ScenarioFile } from '../world/scenario-schema.js';

export interface AppConfig {
  seed: string;
  /** Apply the per-operation version lists of the API document instead of accepting both. */
  strictVersions: boolean;
  /** Serve only the documented operations (plus /_control). */
  strict: boolean;
  /** Serve /_control at all. */
  control: boolean;
  /** When set, /_control needs `X-Control-Token: <token>`. */
  controlToken: string | null;
  /** Clock mode of accounts created without one. */
  clockMode: ClockMode;
  /** Emulator version, reported by /_control/health. */
  version: string;
}

/** Everything a request handler may touch; built by `createEmulator()`, never module state. */
export interface Deps {
  config: AppConfig;
  store: Store;
  clocks: ClockRegistry;
  ids: IdFactory;
  catalog: Catalog;
  /** The emulator-wide clock: request ids and anything not owned by an account. */
  systemClock: VirtualClock;
  /** Wall ms at start, for uptime. */
  startedAt: number;
  /** Where named scenarios live, and the one reset returns to. */
  scenarios: { dir: string; loaded: ScenarioFile };
}

export interface AuthContext {
  account: Account;
  key: ApiKeyRecord;
}

export type AppEnv = {
  Variables: {
    deps: Deps;
    requestId: string;
    version: ServiceVersion;
    auth: AuthContext;
    /** The caller's virtual now, fixed for the request once its account is settled. */
    now: number;
  };
};
