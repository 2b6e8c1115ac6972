/**
 * A bundle written (`GET /_control/bundle`): the world at the mark as a snapshot file, the calls
 * since and the webhook attempts, in the deterministic archive writer's `.tar.gz`. Bounded by
 * `--bundle-limit`: past it, refused with what to narrow. An account's bundle holds that
 * account's rows at the mark and its calls, with the fault rules (the world's part it needs).
 */
import { buildArchive } from '../../core/archive.js';
import { apiError, MESSAGES, notFound } from '../../core/errors.js';
import { SCHEMA_VERSION } from '../../core/sqlite/migrate.js';
import type { Deps } from '../../engine/deps.js';
import type { HeldState, SnapshotState } from '../snapshots/snapshot-file-contract.js';
import { snapshotFileText } from '../snapshots/snapshot-stream.js';
import type { SavedSnapshot } from '../snapshots/snapshots-store.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_ROOT,
  type BundleManifest,
  type BundleSettings,
  type RecordedCall,
} from './bundle-contract.js';
import { replaySecret } from './labels.js';
import type { BundleRecorder, Mark } from './recorder.js';

/** A built bundle: its bytes and the name it downloads as. */
export interface BuiltBundle {
  bytes: Buffer;
  filename: string;
}

/**
 * The bundle of the world (or `account`) from the mark to now.
 * @example const { bytes } = await buildBundle(deps, recorder, settings, null)
 */
export async function buildBundle(
  deps: Deps,
  recorder: BundleRecorder,
  settings: BundleSettings,
  account: string | null,
): Promise<BuiltBundle> {
  const mark = recorder.mark;
  if (!mark?.tag || !mark.state) throw apiError('bundle_not_recording');
  if (recorder.overflowAt !== null)
    throw apiError('bundle_too_large', {
      message: MESSAGES.bundleOverflow(recorder.limitBytes, recorder.overflowAt),
    });
  let calls = recorder.finishedCalls();
  // A fault rule of the whole emulator can strike the account's calls: its calls are kept.
  if (account !== null) calls = calls.filter((c) => c.account === account || c.kind === 'fault');
  const size = mark.storedBytes + calls.reduce((n, c) => n + callBytes(c), 0);
  if (size > recorder.limitBytes)
    throw apiError('bundle_too_large', {
      param: account === null ? null : 'account',
      message: MESSAGES.bundleTooLarge(size, recorder.limitBytes, calls.length),
    });
  const snapshot = await snapshotText(deps, recorder, mark, account, calls);
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    emulator_version: deps.config.version,
    schema_version: SCHEMA_VERSION,
    scope: account === null ? 'world' : 'account',
    account,
    mark: { reason: mark.reason, wall_at: mark.wallAt },
    settings,
    calls: calls.length,
    webhook_attempts: account === null ? recorder.attempts.length : 0,
    scenario: maskScenario(mark.state.scenario)!,
    faults: account === null ? null : mark.state.faults,
  };
  const lines = (rows: readonly unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');
  const { bytes } = buildArchive(
    BUNDLE_ROOT,
    [
      { path: 'manifest.json', content: `${JSON.stringify(manifest, null, 2)}\n` },
      { path: 'snapshot.json', content: snapshot },
      { path: 'calls.jsonl', content: lines(calls) },
      // An account's calls are replayed without the others' deliveries: no attempts to wait for.
      { path: 'webhooks.jsonl', content: account === null ? lines(recorder.attempts) : '' },
    ],
    Math.max(0, deps.systemClock.now()),
  );
  const filename = `svc-emulator-bundle${account === null ? '' : `-${account}`}.tar.gz`;
  return { bytes, filename };
}

/** About what a call takes in `calls.jsonl`. */
function callBytes(c: RecordedCall): number {
  let n = 400 + c.path.length + (c.body?.length ?? 0);
  for (const [name, value] of c.headers) n += name.length + value.length + 4;
  return n;
}

/** The world (or the account) at the mark, as a snapshot file's text. */
async function snapshotText(
  deps: Deps,
  recorder: BundleRecorder,
  mark: Mark,
  account: string | null,
  calls: RecordedCall[],
): Promise<string> {
  const state = mark.state!;
  const base = { name: 'mark', createdAt: mark.wallAt, seed: deps.config.seed, storedBytes: 0 };
  if (account === null) {
    const s: SavedSnapshot = {
      ...base,
      scope: 'world',
      account: null,
      counts: mark.counts,
      state: { ...state, scenario: maskScenario(state.scenario) },
      tag: mark.tag!,
    };
    return collect(snapshotFileText(deps, s, recorder.tables));
  }
  const tag = `${mark.tag}_${account.replace(/\W/g, '')}`;
  try {
    const counts = recorder.tables.extract(mark.tag!, tag, account);
    if (counts.accounts === 0 && !calls.some((c) => c.creates_account === account))
      throw notFound('account', account, 'account');
    const s: SavedSnapshot = {
      ...base,
      scope: 'account',
      account,
      counts,
      state: accountState(state, account),
      tag,
    };
    return await collect(snapshotFileText(deps, s, recorder.tables));
  } finally {
    recorder.tables.drop(tag, account);
  }
}

async function collect(pieces: AsyncGenerator<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}

/** What an account's snapshot keeps of the state beside the tables: its own only (its journal entries: `extract`). */
function accountState(state: HeldState, account: string): HeldState {
  const own = <T>(record: Record<string, T>) =>
    account in record ? { [account]: record[account]! } : {};
  return {
    request_ids: null,
    faults: null,
    system_clock: null,
    scenario: null,
    rate_limits: own(state.rate_limits),
    archives_owed: own(state.archives_owed),
  };
}

/**
 * The loaded scenario with its keys' secrets replaced, so the bundle holds none: a key with an
 * id gets `replaySecret(id)`, one without `svc_replay_scenario_<account>_<key>` (by place).
 */
export function maskScenario(scenario: SnapshotState['scenario']): SnapshotState['scenario'] {
  if (scenario === null) return null;
  const copy = structuredClone(scenario) as { accounts?: { keys?: Record<string, unknown>[] }[] };
  for (const [a, acct] of (copy.accounts ?? []).entries())
    for (const [k, key] of (acct.keys ?? []).entries())
      if (typeof key.secret === 'string')
        key.secret =
          typeof key.id === 'string' ? replaySecret(key.id) : `svc_replay_scenario_${a}_${k}`;
  return copy as SnapshotState['scenario'];
}
