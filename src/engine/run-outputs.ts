/** A run's log and listing as read: derived from its attempt, or a seeded run's stored rows. */

import type { FileEntry } from '../core/contract.js';
import type { Deps } from './deps.js';
import type { RunRecord } from './records.js';
import { runArchive } from './run-archive.js';
import { storesOutputs } from './run-attempt.js';
import type { FilePage } from './store/files.js';
import { attemptLog } from './timeline/log.js';

/**
 * The last `limit` lines of the run's log as of `now`, oldest first (its account is settled).
 * @example runLog(deps, run, 100, c.get('now'))
 */
export function runLog(deps: Deps, record: RunRecord, limit: number, now: number): string[] {
  const run = record.state.run;
  const kind = deps.kinds.byName[record.kind];
  if (storesOutputs(record) || !run || !kind) return deps.store.runLogs.tail(record.id, limit);
  const ctx = kind.context(record.request, run.outcome, record.id, deps.catalog);
  const lines = attemptLog(kind, record.request, run, ctx, now);
  return lines.length > limit ? lines.slice(lines.length - limit) : lines;
}

/**
 * A page of a succeeded run's listing after `after`, in UTF-8 byte order as SQLite pages rows.
 * @example runFilePage(deps, run, '', 100)
 */
export function runFilePage(deps: Deps, record: RunRecord, after: string, limit: number): FilePage {
  const archive = storesOutputs(record) ? undefined : runArchive(deps, record);
  if (!archive) return deps.store.runFiles.page(record.id, after, limit);
  const from = after === '' ? 0 : firstAfter(archive.files, after);
  const data = archive.files.slice(from, from + limit);
  return { data, hasMore: from + limit < archive.files.length };
}

/** The index of the first path after `after` in a listing sorted in UTF-8 byte order. */
function firstAfter(files: readonly FileEntry[], after: string): number {
  const key = Buffer.from(after);
  let lo = 0;
  let hi = files.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare(Buffer.from(files[mid]!.path), key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
