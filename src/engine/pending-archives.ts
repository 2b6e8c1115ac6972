/**
 * Archives owed by succeeded runs (inferred): built after the settle's windows, in the pool's
 * worker threads (a few at a time, applied in order) or one at a time on the event loop, while
 * the account's requests wait for the settle and other accounts' are served; the run's
 * `download` is set once its archive is built.
 */
import { setImmediate } from 'node:timers/promises';
import { toTimestamp } from '../core/clock.js';
import type { Account } from '../core/records.js';
import type { Deps } from './deps.js';
import type { RunRecord } from './records.js';
import { signedToken } from './run-attempt.js';
import type { CachedArchive } from './store/archive-cache.js';

/** Notes that `record` owes its archive, once the transaction that marked it commits. */
export function owesArchive(deps: Deps, record: RunRecord): void {
  record.state.archive_pending = true;
  const { accountId, id } = record;
  deps.store.onCommit(() => deps.engine.oweArchive(accountId, id));
}

/** Notes the archives runs owed when a `--db` file's emulator stopped: its accounts' next settles build them. */
export function oweStoredArchives(deps: Deps): void {
  for (const { accountId, id } of deps.store.runs.owingArchives())
    deps.engine.oweArchive(accountId, id);
}

/** Builds every archive the account owes, in the order they were owed. */
export async function buildPendingArchives(deps: Deps, account: Account): Promise<void> {
  const owed = deps.engine.archivesOwed(account.id);
  if (!owed) return;
  // Workers build the next few while the first is applied; on the event loop, one at a time.
  const ahead = Math.max(1, 2 * deps.engine.settlePool.options.threads);
  const started: { id: string; built: ReturnType<typeof start> }[] = [];
  const startNext = () => {
    const id = owed.values().next().value;
    if (id === undefined) return false;
    owed.delete(id);
    started.push({ id, built: start(deps, account, id) });
    return true;
  };
  try {
    while (started.length > 0 || owed.size > 0) {
      while (started.length < ahead && startNext());
      await setImmediate();
      const { id, built } = started[0]!;
      const done = await built;
      started.shift();
      if (done) apply(deps, account, id, done);
    }
  } catch (err) {
    // Owed still: the account's next settle builds them again.
    for (const { id } of started) owed.add(id);
    throw err;
  }
  if (owed.size === 0) deps.engine.archivesBuilt(account.id);
}

/** The archive `id` owes, under way; resolves undefined when it owes none (any more). */
function start(deps: Deps, account: Account, id: string) {
  const record = deps.store.runs.get(account.id, id);
  if (!record?.state.archive_pending) return Promise.resolve(undefined);
  const built = deps.engine.settlePool.archive(record);
  // Awaited in turn; one that fails after an earlier failure must not go unheard.
  built.catch(() => undefined);
  return built;
}

function apply(deps: Deps, account: Account, id: string, built: CachedArchive & { at: number }) {
  // Read again: nothing of the account moves while its settle is in progress, but be exact.
  const run = deps.store.runs.get(account.id, id);
  if (!run?.state.archive_pending) return;
  const { at, ...archive } = built;
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
