/** A succeeded run's archive: cached, or rebuilt byte for byte, checked against its sha256. */
import type { Deps } from './deps.js';
import type { RunRecord } from './records.js';
import type { CachedArchive } from './store/archive-cache.js';

/**
 * The archive of a succeeded `record`; undefined when it has none (seeded). A rebuild is made as
 * a settle makes it (settle-pool.ts: a long run's in a worker); one that is not the published one
 * throws a plain Error (a 500): a bug, never an answer.
 * @example const archive = await runArchive(deps, run); archive?.sha256 === run.state.download?.sha256
 */
export async function runArchive(
  deps: Deps,
  record: RunRecord,
): Promise<CachedArchive | undefined> {
  const download = record.state.download;
  if (!download || record.state.given_files || !record.state.run) return undefined;
  const cached = deps.store.archives.get(record.id);
  // A stale entry (a transaction that built it rolled back) shows as another digest.
  if (cached?.sha256 === download.sha256) return cached;
  const { at: _at, ...rebuilt } = await deps.engine.settlePool.archive(record);
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
