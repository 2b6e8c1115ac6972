import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { type Catalog, CatalogSchema } from './domain/catalog.js';
import { createApp } from './http/app.js';
import type { AppConfig, AppEnv, Deps } from './http/env.js';
import { RouteTable } from './http/route-table.js';
import { type ClockMode, DEFAULT_CLOCK_START, VirtualClock, wallNow } from './runtime/clock.js';
import { ClockRegistry } from './runtime/clock-registry.js';
import { addFaultRule, FaultRules } from './runtime/fault-rules.js';
import { createIdFactory } from './runtime/id-factory.js';
import { Journal } from './runtime/journal.js';
import { RateLimiter } from './runtime/rate-limiter.js';
import { DEFAULT_SETTLE_SLICE } from './runtime/sliced-settle.js';
import { WebhookDispatcher } from './runtime/webhook-deliveries.js';
import { openStore } from './store/store.js';
import { applyScenario } from './world/apply-scenario.js';
import { loadScenarioFile, parseDataFile, readJsonFile } from './world/load-scenario.js';
import type { ScenarioFile } from './world/scenario-schema.js';

/** The package root: where `scenarios/` and `fixtures/` live, from `src/` or `dist/`. */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
  return String(pkg.version);
}

export function loadCatalog(file = join(PACKAGE_ROOT, 'fixtures', 'catalog.json')): Catalog {
  return parseDataFile(CatalogSchema, readJsonFile(file), file);
}

export interface EmulatorOptions {
  /** `:memory:` (default) or a file path. */
  db?: string;
  seed?: string;
  /** A scenario name in `scenariosDir`, or an inline scenario. Default `default`. */
  scenario?: string | ScenarioFile;
  scenariosDir?: string;
  /** Clock mode of accounts that name none. Default `manual` (the CLI passes `realtime`). */
  clock?: ClockMode;
  strictVersions?: boolean;
  strict?: boolean;
  control?: boolean;
  controlToken?: string | null;
  /** Entries the request journal keeps. Default 10,000. */
  journalSize?: number;
  /** Send webhook deliveries. Default true (`--no-webhooks`: false). */
  webhooks?: boolean;
  /** Waits between delivery attempts (attempts = delays + 1). Default 100 ms, 500 ms. */
  webhookRetryDelaysMs?: readonly number[];
  /** Most events one settle window applies (runtime/sliced-settle.ts). Default 2000. */
  settleSlice?: number;
}

export interface Emulator {
  app: OpenAPIHono<AppEnv>;
  deps: Deps;
  /** False when a `--db` file already held a world, which was kept instead of the scenario. */
  scenarioApplied: boolean;
  /** Back to the loaded scenario: everything, or one account. */
  reset(options?: { scenario?: ScenarioFile; account?: string }): void;
  close(): void;
}

/**
 * Builds a complete emulator: store, clocks, ids, the loaded scenario and the app. No module
 * state: two emulators in one process share nothing.
 * @example const { app } = createEmulator({ seed: '0' }); await app.request('/_control/health')
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const scenariosDir = options.scenariosDir ?? join(PACKAGE_ROOT, 'scenarios');
  const scenario =
    typeof options.scenario === 'object'
      ? options.scenario
      : loadScenarioFile(scenariosDir, options.scenario ?? 'default');
  const config: AppConfig = {
    seed: options.seed ?? '0',
    strictVersions: options.strictVersions ?? false,
    strict: options.strict ?? false,
    control: options.control ?? true,
    controlToken: options.controlToken ?? null,
    clockMode: options.clock ?? 'manual',
    version: packageVersion(),
    journalSize: options.journalSize ?? 10_000,
    webhooks: options.webhooks ?? true,
  };
  const store = openStore(options.db ?? ':memory:');
  const deps: Deps = {
    config,
    store,
    clocks: new ClockRegistry(store, wallNow, options.settleSlice ?? DEFAULT_SETTLE_SLICE),
    ids: createIdFactory(config.seed, store.sequences),
    catalog: loadCatalog(),
    systemClock: new VirtualClock(DEFAULT_CLOCK_START, config.clockMode),
    startedAt: wallNow(),
    scenarios: { dir: scenariosDir, loaded: scenario },
    faults: new FaultRules(config.seed),
    journal: new Journal(config.journalSize),
    limiter: new RateLimiter(),
    routes: new RouteTable(),
    idempotencyInFlight: new Set(),
    webhooks: new WebhookDispatcher({
      seed: config.seed,
      enabled: config.webhooks,
      ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}),
    }),
  };
  // A --db file that already holds a world keeps it; a fresh store gets the scenario.
  const scenarioApplied = store.accounts.list().length === 0;
  if (scenarioApplied) applyScenario(deps, scenario);
  installScenarioFaults(deps, scenario);
  const app = createApp(deps);
  return {
    app,
    deps,
    scenarioApplied,
    reset: (opts = {}) => resetWorld(deps, opts),
    close: () => {
      deps.webhooks.close();
      store.close();
    },
  };
}

/** DESIGN.md section 5 `POST /_control/reset`: a few milliseconds, new state not cleanup. */
export function resetWorld(deps: Deps, opts: { scenario?: ScenarioFile; account?: string }): void {
  if (opts.scenario) deps.scenarios.loaded = opts.scenario;
  const scenario = deps.scenarios.loaded;
  if (opts.account) {
    const inScenario = scenario.accounts.some((a) => a.id === opts.account);
    // The account's id counters restart too, so the same requests give the same ids again
    // (DESIGN.md section 1.2); an account made at run time keeps its keys, and so their counters.
    if (inScenario) {
      deps.store.tx(() => {
        deps.store.accounts.remove(opts.account!);
        deps.store.sequences.clearScope(opts.account!);
      });
      deps.limiter.forget(opts.account);
      deps.journal.remove({ account: opts.account });
      deps.webhooks.clear(opts.account);
      deps.clocks.forget(opts.account);
      applyScenario(deps, scenario, opts.account);
    } else {
      deps.store.clearAccountResources(opts.account);
      const keep = ['key', 'secret'].map((p) => `${opts.account}/${p}`);
      deps.store.sequences.clearScope(opts.account, keep);
      deps.limiter.forget(opts.account);
      deps.journal.remove({ account: opts.account });
      deps.webhooks.clear(opts.account);
    }
    return;
  }
  deps.store.clear();
  deps.clocks.clear();
  deps.ids.resetRequests();
  deps.limiter.clear();
  deps.journal.remove();
  deps.webhooks.clear();
  applyScenario(deps, scenario);
  installScenarioFaults(deps, scenario);
}

/** The scenario's fault rules replace whatever rules were installed. */
function installScenarioFaults(deps: Deps, scenario: ScenarioFile): void {
  deps.faults.clear();
  for (const rule of scenario.faults ?? []) addFaultRule(deps, rule);
}
