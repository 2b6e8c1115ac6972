/**
 * A world started from a bundle (`--bundle FILE`, `svc-emulator replay`): the world (or the
 * account, in the loaded scenario's world) as it stood at the mark, with the emulator's settings
 * that the answers depend on. The bundle's snapshot is checked as any snapshot file is.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ClockMode } from '../../core/clock.js';
import { parseClockMode } from '../../core/clock.js';
import { digestSecret } from '../../core/sha256.js';
import type { Deps } from '../../engine/deps.js';
import {
  checkSnapshotFile,
  SnapshotFileError,
  writeSnapshotCopy,
} from '../snapshots/snapshot-file.js';
import type { SnapshotTables } from '../snapshots/snapshot-tables.js';
import { restoreSnapshot } from '../snapshots/snapshots.js';
import { maskScenario } from './bundle-file.js';
import { type Bundle, BundleFileError } from './bundle-read.js';
import { replaySecret } from './labels.js';

/** The emulator options a bundle's settings give (names as `createEmulator` takes them). */
export function bundleOptions(bundle: Bundle) {
  const s = bundle.manifest.settings;
  return {
    seed: s.seed,
    clock: (parseClockMode(s.clock) ?? 'manual') as ClockMode,
    strict: s.strict,
    strictVersions: s.strict_versions,
    journalSize: s.journal_size,
    webhooks: s.webhooks,
    webhookHistory: s.webhook_history,
    webhookTimestamps: s.webhook_timestamps,
    settleSlice: s.settle_slice,
    snapshotLimit: s.snapshot_limit,
    snapshotSpaceBytes: s.snapshot_space_bytes,
    controlAllowOrigins: s.control_allow_origins,
    allowedHosts: s.allowed_hosts,
    cors: s.cors,
    ...(s.webhook_retry_schedule_ms ? { webhookRetrySchedule: s.webhook_retry_schedule_ms } : {}),
    ...(s.webhook_timeout_ms ? { webhookTimeoutMs: s.webhook_timeout_ms } : {}),
  };
}

/**
 * Whether `scenario` (the file the bundle names, loaded here) is the one recorded: then resets
 * go back to it with its keys' own secrets; else to the bundle's copy, with replay secrets.
 */
export function isRecordedScenario(bundle: Bundle, scenario: unknown): boolean {
  const masked = maskScenario(scenario as Record<string, unknown>);
  return isDeepStrictEqual(JSON.parse(JSON.stringify(masked)), bundle.manifest.scenario);
}

/**
 * Puts the bundle's world (or account) in place, in the recording's own tables; an account's
 * bundle also brings the fault rules it was recorded with.
 * @example loadBundle(deps, readBundleFile('bundle.tar.gz', version), recorder.tables)
 */
export function loadBundle(deps: Deps, bundle: Bundle, tables: SnapshotTables): void {
  let checked: ReturnType<typeof checkSnapshotFile>;
  try {
    checked = checkSnapshotFile(deps, bundle.snapshot);
  } catch (err) {
    if (err instanceof SnapshotFileError)
      throw new BundleFileError(`snapshot.json: ${err.message}`);
    throw err;
  }
  const scenario = deps.scenarios.loaded;
  const snapshot = writeSnapshotCopy(deps, checked, tables, 'loaded', 'mark');
  try {
    restoreSnapshot(deps, snapshot, tables);
  } finally {
    tables.drop(snapshot.tag, snapshot.account);
  }
  // The scenario chosen at start (the named file, or the bundle's copy) stays the one resets use.
  deps.scenarios.loaded = scenario;
  if (bundle.manifest.faults) deps.faults.replace(bundle.manifest.faults);
}

/**
 * For a replay: every key's secret becomes `replaySecret(id)`, which the recorded calls' labels
 * stand for (the bundle holds only the digests of the secrets recorded).
 */
export function useReplaySecrets(deps: Deps): void {
  const { db } = deps.store;
  const ids = db.prepare<[], string>('SELECT id FROM api_keys').pluck().all();
  const update = db.prepare<[Buffer, string]>('UPDATE api_keys SET secret_sha256 = ? WHERE id = ?');
  db.transaction(() => {
    for (const id of ids) update.run(digestSecret(replaySecret(id)), id);
  })();
}
