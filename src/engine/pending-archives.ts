/**
 * Archives owed by succeeded runs (inferred): built after the settle's windows, one at a time off
 * the event loop, while the account's requests wait for the settle and other accounts' are
 * served; the run's `download` is set once its archive is built.
 */
import { setImmediate } from 'node:timers/promises';
import { toTimestamp } from '../core/clock.js';
import type { Account } from '../core/records.js';
import type { Deps } from './deps.js';
import type { RunRecord } from './records.js';
import { buildRunArchiveAsync } from './run-archive.js';
import { signedToken } from './run-attempt.js';

/** Notes that `record` owes its archive, once the transaction that marked it commits. */
export function owesArchive(deps: Deps, record: RunRecord): void {
  record.state.archive_pending = true;
  const { accountId, id } = record;
  deps.store.onCommit(() => {
    const owed = deps.pendingArchives.get(accountId) ?? new Set<string>();
    deps.pendingArchives.set(accountId, owed.add(id));
  });
}

/** Builds every archive the account owes, in the order they were owed. */
export async function buildPendingArchives(deps: Deps, account: Account): Promise<void> {
  const owed = deps.pendingArchives.get(account.id);
  if (!owed) return;
  for (const id of owed) {
    await setImmediate();
    owed.delete(id);
    const record = deps.store.runs.get(account.id, id);
    if (record?.state.archive_pending) await build(deps, account, record);
  }
  if (owed.size === 0) deps.pendingArchives.delete(account.id);
}

async function build(deps: Deps, account: Account, record: RunRecord): Promise<void> {
  const { archive, at } = await buildRunArchiveAsync(deps, record);
  // Read again: nothing of the account moves while its settle is in progress, but be exact.
  const run = deps.store.runs.get(account.id, record.id);
  if (!run?.state.archive_pending) return;
  deps.store.archives.put(run.id, archive);
  const signed = account.downloadMode === 'signed';
  delete run.state.archive_pending;
  run.state.download = {
    url: '',
    requires_auth: !signed,
    expires_at: signed ? toTimestamp(at + 3_600_000) : null,
    filename: `${run.id}.tar.gz`,
    bytes: archive.bytes.length,
    sha256: archive.sha256,
  };
  if (signed) run.state.download_token = signedToken(deps, run.id, run.state.run!.attempt);
  deps.store.tx(() => deps.store.runs.saveState(run));
}
