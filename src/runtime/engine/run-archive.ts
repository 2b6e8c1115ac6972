/** A succeeded run's archive: cached, or rebuilt byte for byte, checked against its sha256. */
import { buildArchive } from '../../domain/build-archive.js';
import type { RunRecord } from '../../domain/records.js';
import type { CachedArchive } from '../../store/archive-cache.js';
import type { Deps } from '../deps.js';
import { archiveEntries } from './settle-jobs.js';

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
  const { entries, at } = entriesOf(deps, record);
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

/** What a succeeded run's archive holds, as its end had it, and its mtime. */
function entriesOf(deps: Deps, record: RunRecord) {
  const kind = deps.kinds.byName[record.kind];
  const completed = Date.parse(record.state.completed_at ?? '');
  if (!kind || !Number.isFinite(completed)) {
    throw new Error(`run ${record.id}: cannot build the archive of a ${record.kind} run`);
  }
  const job = { kind: record.kind, id: record.id, request: record.request, run: record.state.run! };
  return archiveEntries(kind, job, completed, deps.catalog);
}
