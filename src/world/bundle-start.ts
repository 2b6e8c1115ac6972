/**
 * An emulator started from a replay bundle (`--bundle FILE`, `svc-emulator replay`): the bundle
 * opened, the scenario its resets go back to chosen, and the settings a bundle records read back
 * from a running emulator.
 */
import type { BundleSettings } from '../areas/bundles/bundle-contract.js';
import { type Bundle, BundleFileError, readBundleFile } from '../areas/bundles/bundle-read.js';
import { isRecordedScenario, loadBundle, useReplaySecrets } from '../areas/bundles/load-bundle.js';
import { BundleRecorder } from '../areas/bundles/recorder.js';
import { type ScenarioFile, scenarioSchema } from '../areas/scenarios/scenario-file.js';
import type { WebhookTimestamps } from '../areas/webhooks/deliveries.js';
import { MESSAGES } from '../core/errors.js';
import type { Deps } from '../engine/deps.js';
import type { Kinds } from '../engine/kind-registry.js';
import { loadScenario, parseDataFile } from './load-scenario.js';

/** The bundle of `--bundle`: read from its file, or given read; `seed`, if given, must be its own. */
export function openBundle(given: string | Bundle, version: string, seed?: string): Bundle {
  try {
    const bundle = typeof given === 'string' ? readBundleFile(given, version) : given;
    const saved = bundle.manifest.settings.seed;
    if (seed !== undefined && seed !== saved)
      throw new BundleFileError(MESSAGES.snapshotSeed(saved, seed).replace('snapshot', 'bundle'));
    return bundle;
  } catch (err) {
    if (err instanceof BundleFileError && typeof given === 'string')
      throw new BundleFileError(`${given}: ${err.message}`);
    throw err;
  }
}

/**
 * The scenario a bundle's world resets to: the file of the recorded name, when it is the one
 * recorded (its keys keep their own secrets), else the bundle's copy (keys with replay secrets).
 */
export function bundleScenario(
  bundle: Bundle,
  dirs: readonly string[],
  kinds: Kinds,
  /** A replay takes the bundle's copy always: its keys' secrets are the ones the labels name. */
  replay = false,
): { file: string; scenario: ScenarioFile } {
  const name = bundle.manifest.settings.scenario;
  if (!replay)
    try {
      const named = loadScenario(dirs, name, kinds);
      if (isRecordedScenario(bundle, named.scenario)) return named;
    } catch {
      // Not here, or not loadable: the bundle's copy serves.
    }
  const file = `the bundle's scenario '${name}'`;
  return { file, scenario: parseDataFile(scenarioSchema(kinds), bundle.manifest.scenario, file) };
}

/** The webhook settings that are options only (deps does not keep them). */
export interface WebhookSettings {
  history: number;
  retryScheduleMs: readonly number[] | null;
  timeoutMs: number | null;
  timestamps: 'wall' | 'virtual';
}

/** The settings a bundle records, of this emulator as it runs now. */
export function bundleSettings(
  deps: Deps,
  recorder: BundleRecorder,
  webhooks: WebhookSettings,
): BundleSettings {
  const { config } = deps;
  const atMark = recorder.mark?.state?.scenario as { name?: unknown } | null | undefined;
  return {
    seed: config.seed,
    clock: config.clockMode,
    strict: config.strict,
    strict_versions: config.strictVersions,
    journal_size: config.journalSize,
    webhooks: config.webhooks,
    webhook_history: webhooks.history,
    webhook_retry_schedule_ms: webhooks.retryScheduleMs && [...webhooks.retryScheduleMs],
    webhook_timeout_ms: webhooks.timeoutMs,
    webhook_timestamps: webhooks.timestamps,
    settle_slice: config.settleSlice,
    snapshot_limit: config.snapshotLimit,
    snapshot_space_bytes: config.snapshotSpaceBytes,
    allowed_hosts: [...config.allowedHosts],
    control_allow_origins: [...config.controlAllowOrigins],
    cors: [...config.cors],
    control_token: config.controlToken !== null,
    origin: deps.webhooks.origin,
    scenario: typeof atMark?.name === 'string' ? atMark.name : deps.scenarios.loaded.name,
  };
}

/** The most bytes of calls a recording holds unless told (`--bundle-limit`). */
export const DEFAULT_BUNDLE_LIMIT_BYTES = 64 * 1024 * 1024;

/** What `startBundles` reads of the emulator's options. */
export interface BundleStartOptions {
  bundleRecord?: boolean;
  bundleLimitBytes?: number;
  bundleReplay?: boolean;
  webhookHistory?: number;
  webhookRetrySchedule?: readonly number[];
  webhookTimeoutMs?: number;
  webhookTimestamps?: WebhookTimestamps;
}

/**
 * The recording of the calls, and the bundle's world put in place when started from one: with
 * `bundleRecord`, marked at once (the world as it starts).
 */
export function startBundles(deps: Deps, bundle: Bundle | undefined, options: BundleStartOptions) {
  const recorder = new BundleRecorder(
    deps.store.db,
    options.bundleRecord ?? false,
    options.bundleLimitBytes ?? DEFAULT_BUNDLE_LIMIT_BYTES,
  );
  if (bundle) {
    loadBundle(deps, bundle, recorder.tables);
    if (options.bundleReplay) useReplaySecrets(deps);
    deps.webhooks.origin = bundle.manifest.settings.origin;
  }
  if (recorder.auto) {
    recorder.markAtRest(deps, 'start');
    deps.webhooks.hooks = recorder.webhookHooks();
  }
  const settings = () =>
    bundleSettings(deps, recorder, {
      history: options.webhookHistory ?? 10_000,
      retryScheduleMs: options.webhookRetrySchedule ?? null,
      timeoutMs: options.webhookTimeoutMs ?? null,
      timestamps: options.webhookTimestamps ?? 'wall',
    });
  return { recorder, settings };
}
