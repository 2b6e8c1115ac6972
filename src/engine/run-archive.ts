/** A succeeded run's archive: cached, or rebuilt byte for byte, checked against its sha256. */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { archiveOf, buildArchive, GZIP_OPTIONS, tarOf } from '../core/archive.js';
import { MAX_VIRTUAL_MS, MIN_VIRTUAL_MS } from '../core/clock-mode.js';
import type { Deps } from './deps.js';
import type { RunRecord } from './records.js';
import type { CachedArchive } from './store/archive-cache.js';
import { attemptLog } from './timeline/log.js';

/**
 * The archive of a succeeded `record`; undefined when it has none (seeded). A rebuild that is not
 * the published one throws a plain Error (a 500): a bug, never an answer.
 * @example const archive = runArchive(deps, run); archive?.sha256 === run.state.download?.sha256
 */
export function runArchive(deps: Deps, record: RunRecord): CachedArchive | undefined {
  const download = record.state.download;
  if (!download || record.state.given_files || !record.state.run) return undefined;
  const cached = deps.store.archives.get(record.id);
  // A stale entry (a transaction that built it rolled back) shows as another digest.
  if (cached?.sha256 === download.sha256) return cached;
  const { entries, at } = archiveEntries(deps, record);
  const rebuilt = buildArchive(record.id, entries, at);
  const { bytes, sha256 } = rebuilt;
  if (sha256 !== download.sha256 || bytes.length !== download.bytes) {
    throw new Error(
      `run ${record.id}: rebuilt archive ${sha256} (${bytes.length} B) differs from the ` +
        `published ${download.sha256} (${download.bytes} B)`,
    );
  }
  deps.store.archives.put(record.id, rebuilt);
  return rebuilt;
}

const gzipAsync = promisify(gzip);

/**
 * The archive `finish` (apply-due.ts) owes, with the compression done off the event loop (zlib's
 * thread pool): the bytes a rebuild gives, while other clients are served. `at` is its instant.
 */
export async function buildRunArchiveAsync(deps: Deps, record: RunRecord) {
  const { entries, at } = archiveEntries(deps, record);
  const { tar, files } = tarOf(record.id, entries, at);
  return { archive: archiveOf(await gzipAsync(tar, GZIP_OPTIONS), files), at };
}

/** What a succeeded run's archive holds, as `finish` (apply-due.ts) had it, and its mtime. */
function archiveEntries(deps: Deps, record: RunRecord) {
  const kind = deps.kinds.byName[record.kind];
  const run = record.state.run!;
  const completed = Date.parse(record.state.completed_at ?? '');
  if (!kind || !Number.isFinite(completed)) {
    throw new Error(`run ${record.id}: cannot build the archive of a ${record.kind} run`);
  }
  const ctx = kind.context(record.request, run.outcome, record.id, deps.catalog);
  const steps = run.schedule.stepsAtEnd;
  const { result } = kind.success(ctx, steps);
  // Nothing is logged after success (a resume starts a new log), so this is the log it had.
  const logs = attemptLog(kind, record.request, run, ctx, completed);
  // An older world may hold runs completed outside what a tar header holds: the nearest instant.
  const at = Math.max(MIN_VIRTUAL_MS, Math.min(completed, MAX_VIRTUAL_MS));
  return { entries: kind.archive(ctx, result, steps, logs), at };
}
