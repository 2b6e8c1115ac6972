import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ControlPlugIns } from './areas/area.js';
import type { BundleSettings } from './areas/bundles/bundle-contract.js';
import type { Bundle } from './areas/bundles/bundle-read.js';
import { bundleOptions } from './areas/bundles/load-bundle.js';
import { recordCalls } from './areas/bundles/record-calls.js';
import type { BundleRecorder } from './areas/bundles/recorder.js';
import { FaultRules } from './areas/faults/fault-rules.js';
import { FaultRuleStore } from './areas/faults/fault-rules-store.js';
import { CoverageCounts } from './areas/requests/coverage-counts.js';
import { Journal } from './areas/requests/journal.js';
import { JournalStore } from './areas/requests/journal-store.js';
import type { ScenarioFile } from './areas/scenarios/scenario-file.js';
import { restoreSnapshot } from './areas/snapshots/snapshots.js';
import { shelveStartSnapshot, startSnapshot } from './areas/snapshots/start-snapshot.js';
import { openStore } from './areas/store.js';
import type { WebhookTimestamps } from './areas/webhooks/deliveries.js';
import { createWebhooks, subscribeWebhooks } from './areas/webhooks/subscribe.js';
import { ClockRegistry } from './core/accounts/clock-registry.js';
import { RateLimiter } from './core/accounts/rate-limiter.js';
import { CatalogSchema } from './core/catalog.js';
import { type ClockMode, DEFAULT_CLOCK_START, VirtualClock, wallNow } from './core/clock.js';
import type { AppEnv } from './core/env.js';
import { createIdFactory } from './core/id-factory.js';
import { RouteTable } from './core/route-table.js';
import type { AppConfig, Deps } from './engine/deps.js';
import { Engine } from './engine/engine.js';
import { kindRegistry } from './engine/kind-registry.js';
import { oweStoredArchives } from './engine/pending-archives.js';
import type { RegisteredKind } from './engine/run-kind.js';
import { createSettlePool } from './engine/settle-pool.js';
import { type SettleOptions, settleConfig } from './engine/sliced-settle.js';
import { createApp } from './http/app.js';
import { createControlApp } from './http/control-app.js';
import { LOOPBACK_HOSTS } from './http/host-check.js';
import { productDocument } from './http/openapi-document.js';
import { REGISTERED_KINDS } from './kinds/index.js';
import { applyScenarioFile } from './world/apply-scenario.js';
import { bundleScenario, openBundle, startBundles } from './world/bundle-start.js';
import { loadScenario, parseDataFile, readJsonFile } from './world/load-scenario.js';
import { installScenarioFaults, resetWorld } from './world/reset.js';
import './deps-fields.js'; // what adds to Deps, kept in the package's declaration files

/** The package root: where `scenarios/` and `fixtures/` live, from `src/` or `dist/`. */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
  return String(pkg.version);
}

const CATALOG_FILE = join(PACKAGE_ROOT, 'fixtures', 'catalog.json');
/** The scenarios the package ships (`scenarios/`). */
export const SHIPPED_SCENARIOS = join(PACKAGE_ROOT, 'scenarios');

export interface EmulatorOptions extends SettleOptions {
  /** The run kinds served. Default every registered one (`src/kinds/index.ts`). */
  kinds?: readonly RegisteredKind[];
  /** `:memory:` (default) or a file path. */
  db?: string;
  seed?: string;
  /**
   * A scenario name (looked up in `scenariosDir`), a path to a JSON or YAML scenario file, or an
   * inline scenario. Default `default`.
   */
  scenario?: string | ScenarioFile;
  /**
   * The folder, or folders in order, where scenario names are looked up (the first that has the
   * name wins). Default the package's `scenarios/`; the CLI's `--scenarios-dir` puts its folder
   * before that one.
   */
  scenariosDir?: string | readonly string[];
  /** Clock mode of accounts that name none. Default `manual` (the CLI passes `realtime`). */
  clock?: ClockMode;
  strictVersions?: boolean;
  strict?: boolean;
  control?: boolean;
  controlToken?: string | null;
  /** `--control-allow-origin`: other origins a browser may call /_control from (`*`: any). */
  controlAllowOrigins?: readonly string[];
  /**
   * `--cors`: web origins a browser may call `/v1` from (`['*']`: any), e.g.
   * `['http://localhost:5173']`, for SDK tests in a browser. Default none.
   */
  cors?: readonly string[];
  /**
   * Host names besides the loopback ones that `/_control` and `/docs` answer (`*`: any; a
   * leading dot: a domain and its subdomains), against DNS rebinding. The CLI adds `--host`.
   */
  allowedHosts?: readonly string[];
  /** Entries the request journal keeps. Default 10,000. */
  journalSize?: number;
  /** Send webhook deliveries. Default true (`--no-webhooks`: false). */
  webhooks?: boolean;
  /**
   * Virtual ms before each delivery attempt on the account's clock: the first after its event,
   * each next after a failed one (attempts = entries). Default the Standard Webhooks schedule:
   * 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
   */
  webhookRetrySchedule?: readonly number[];
  /** Wall ms one delivery attempt may take before it fails. Default 10,000. */
  webhookTimeoutMs?: number;
  /** Delivered or failed deliveries kept, oldest pruned first. Default 10,000. */
  webhookHistory?: number;
  /** `webhook-timestamp`: wall time at the attempt (default) or the event's virtual time. */
  webhookTimestamps?: WebhookTimestamps;
  /**
   * Bytes of built archives kept in memory, least recently read dropped first; a dropped one is
   * rebuilt byte for byte when read (store/archive-cache.ts). Default 4 MiB.
   */
  archiveCacheBytes?: number;
  /** The most snapshots kept at once (`--snapshot-limit`). Default 100. */
  snapshotLimit?: number;
  /**
   * The most bytes the snapshots' copies take together, in SQLite's temporary file
   * (`--snapshot-space`, in MiB). Default 1 GiB.
   */
  snapshotSpaceBytes?: number;
  /**
   * A snapshot file (`GET /_control/snapshots/{name}/download`) to start from, listed under its
   * name; its seed is used, and a `seed` naming another one throws.
   */
  snapshot?: string;
  /** A replay bundle (file or read): its world at the mark, with its seed and settings. */
  bundle?: string | Bundle;
  /** `svc-emulator replay`: the bundle's scenario copy, and every key's secret its replay one. */
  bundleReplay?: boolean;
  /** `--bundle-record`: record calls from the start, the mark moving to each full reset. */
  bundleRecord?: boolean;
  /** `--bundle-limit`: the most bytes of calls a recording holds. Default 64 MiB. */
  bundleLimitBytes?: number;
}

export interface ProductEmulator {
  app: OpenAPIHono<AppEnv>;
  deps: Deps;
  /** False when a `--db` file already held a world, which was kept instead of the scenario. */
  scenarioApplied: boolean;
  /** The name of the snapshot (`snapshot`) the world started from, if any. */
  startedFrom: string | null;
  /** The recording of the calls that replay bundles are made of. */
  recorder: BundleRecorder;
  /** The settings a bundle of this emulator records. */
  bundleSettings(): BundleSettings;
  /** Back to the loaded scenario: everything, or one account. */
  reset(options?: { scenario?: ScenarioFile; account?: string }): void;
  close(): void;
}

/** The settings every part reads: the options, with their defaults. */
function appConfig(options: EmulatorOptions): AppConfig {
  return {
    ...settleConfig(options),
    seed: options.seed ?? '0',
    strictVersions: options.strictVersions ?? false,
    strict: options.strict ?? false,
    control: options.control ?? true,
    controlToken: options.controlToken ?? null,
    controlAllowOrigins: options.controlAllowOrigins ?? [],
    cors: (options.cors ?? []).map((o) => o.toLowerCase().replace(/\/$/, '')),
    allowedHosts: [...LOOPBACK_HOSTS, ...(options.allowedHosts ?? [])],
    clockMode: options.clock ?? 'manual',
    version: packageVersion(),
    journalSize: options.journalSize ?? 10_000,
    webhooks: options.webhooks ?? true,
    snapshotLimit: options.snapshotLimit ?? 100,
    snapshotSpaceBytes: options.snapshotSpaceBytes ?? 1024 * 1024 * 1024,
  };
}

/** What the product and control apps share, and the journal's store (a `--db` file's only). */
function createDeps(
  options: EmulatorOptions,
  kinds: Deps['kinds'],
  scenarios: Deps['scenarios'],
): { deps: Deps; journalStore: JournalStore | null } {
  const config = appConfig(options);
  const store = openStore(options.db ?? ':memory:', {
    archiveCacheBytes: options.archiveCacheBytes,
    stepNounOf: (name) => kinds.byName[name]?.stepNoun,
  });
  // Only a --db file keeps fault rules and the journal across a restart.
  const onFile = (options.db ?? ':memory:') !== ':memory:';
  const journalStore = onFile ? new JournalStore(store.db, config.journalSize) : null;
  const clocks = new ClockRegistry(store, wallNow);
  const catalog = parseDataFile(CatalogSchema, readJsonFile(CATALOG_FILE), CATALOG_FILE);
  const workers = { known: REGISTERED_KINDS, beside: import.meta.url }; // settle-worker.ts
  const engine = new Engine(
    createSettlePool(kinds.byName, catalog, options.settleWorkers, workers),
  );
  const ids = createIdFactory(config.seed, store.sequences);
  const deps: Deps = {
    config,
    store,
    kinds,
    clocks,
    engine,
    ids,
    catalog,
    systemClock: new VirtualClock(DEFAULT_CLOCK_START, config.clockMode),
    startedAt: wallNow(),
    scenarios,
    faults: new FaultRules(config.seed, onFile ? new FaultRuleStore(store.db) : null),
    journal: new Journal(config.journalSize, journalStore),
    coverage: new CoverageCounts(),
    limiter: new RateLimiter(),
    routes: new RouteTable(),
    webhooks: createWebhooks(
      { config, store, clocks, kinds, engine, ids },
      {
        enabled: config.webhooks,
        historySize: options.webhookHistory ?? 10_000,
        timestamps: options.webhookTimestamps ?? 'wall',
        retryScheduleMs: options.webhookRetrySchedule,
        timeoutMs: options.webhookTimeoutMs,
      },
    ),
  };
  subscribeWebhooks(deps);
  return { deps, journalStore };
}

/**
 * Builds an emulator of the product alone: store, clocks, ids, the loaded scenario and the app,
 * with the control parts `plugIns` gives. No module state: two emulators in one process share
 * nothing. Users call tools/emulator.ts's `createEmulator()`, which plugs the tools in.
 * @example const { app } = createProductEmulator({ seed: '0' }); await app.request('/_control/health')
 */
export function createProductEmulator(
  given: EmulatorOptions = {},
  plugIns: ControlPlugIns = () => [],
): ProductEmulator {
  const bundle =
    given.bundle === undefined ? undefined : openBundle(given.bundle, packageVersion(), given.seed);
  const options: EmulatorOptions = bundle ? { ...given, ...bundleOptions(bundle) } : given;
  const kinds = kindRegistry(options.kinds ?? REGISTERED_KINDS);
  const dirs = options.scenariosDir ?? SHIPPED_SCENARIOS;
  const scenariosDir = typeof dirs === 'string' ? [dirs] : dirs;
  const { file: scenarioFile, scenario } = bundle
    ? bundleScenario(bundle, scenariosDir, kinds, options.bundleReplay)
    : typeof options.scenario === 'object'
      ? { file: `scenario '${options.scenario.name}'`, scenario: options.scenario }
      : loadScenario(scenariosDir, options.scenario ?? 'default', kinds);
  const scenarios = { dirs: scenariosDir, loaded: scenario, summaries: new Map() };
  const snapshot =
    options.snapshot === undefined
      ? undefined
      : startSnapshot(options.snapshot, packageVersion(), options.seed);
  const seed = snapshot?.seed ?? options.seed;
  const { deps, journalStore } = createDeps({ ...options, seed }, kinds, scenarios);
  const { config, store } = deps;
  const start = snapshot && shelveStartSnapshot(deps, options.snapshot!, snapshot.data);
  // A --db file that already holds a world keeps it; a fresh store gets the scenario (a whole
  // world's snapshot brings its own).
  const scenarioApplied = store.accounts.list().length === 0 && start?.scope !== 'world';
  if (scenarioApplied) {
    applyScenarioFile(deps, scenario, scenarioFile);
    installScenarioFaults(deps, scenario);
  } else {
    deps.faults.restore();
    if (journalStore) deps.journal.restore(journalStore.load());
    oweStoredArchives(deps);
  }
  if (start) restoreSnapshot(deps, start);
  const { recorder, settings } = startBundles(deps, bundle, options);
  const app = createApp(deps, recordCalls(deps, recorder));
  // Built once every route is registered (the first that asks), as the app serves it.
  let document: unknown;
  const served = () => (document ??= productDocument(app, kinds));
  const plugged = plugIns({ app, deps, productDocument: served });
  // The control API is composed here, beside the product API: neither imports the other.
  if (config.control)
    app.route('/_control', createControlApp({ deps, bundles: { recorder, settings } }, plugged));
  return {
    app,
    deps,
    scenarioApplied,
    startedFrom: start?.name ?? (bundle ? 'bundle' : null),
    recorder,
    bundleSettings: settings,
    reset: (opts = {}) => resetWorld(deps, opts),
    close: () => {
      deps.journal.endSubscriptions();
      deps.webhooks.close();
      void deps.engine.settlePool.close();
      journalStore?.flush();
      store.close();
    },
  };
}
