/** A run's log and listing as read: derived from its attempt, or a seeded run's stored rows. */
import type { Deps } from './deps.js';
import type { RunRecord } from './records.js';
import { runArchive } from './run-archive.js';
import { storesOutputs } from './run-attempt.js';
import { listingPage } from './store/file-listing.js';
import type { FilePage } from './store/files.js';

/**
 * The last `limit` lines of the run's log as of `now`, oldest first (its account is settled); a
 * long run's derived in a worker (settle-pool.ts).
 * @example await runLog(deps, run, 100, c.get('now'))
 */
export async function runLog(
  deps: Deps,
  record: RunRecord,
  limit: number,
  now: number,
): Promise<string[]> {
  if (storesOutputs(record) || !record.state.run || !deps.kinds.byName[record.kind]) {
    return deps.store.runLogs.tail(record.id, limit);
  }
  return deps.engine.settlePool.log(record, now, limit);
}

/**
 * A page of a succeeded run's listing after `after`, in UTF-8 byte order as SQLite pages rows.
 * @example await runFilePage(deps, run, '', 100)
 */
export async function runFilePage(
  deps: Deps,
  record: RunRecord,
  after: string,
  limit: number,
): Promise<FilePage> {
  const archive = storesOutputs(record) ? undefined : await runArchive(deps, record);
  if (!archive) return deps.store.runFiles.page(record.id, after, limit);
  return listingPage(archive.listing, after, limit);
}
