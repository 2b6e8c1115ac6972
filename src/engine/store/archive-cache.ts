/** Archives of succeeded runs in memory within a byte budget, least recently used dropped first. */
import { listingBytes, type PackedListing } from './file-listing.js';

/** The bytes served, their SHA-256 (`download.sha256`) and the file listing (not stored either). */
export interface CachedArchive {
  bytes: Buffer;
  sha256: string;
  listing: PackedListing;
}

/** The default budget: a suite reads an archive soon after its run, so few are read twice. */
export const ARCHIVE_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * An LRU map of run id to archive within `budgetBytes`. Not transactional: a rollback may leave an
 * entry of a run that did not succeed, so readers check `sha256` against the run's.
 * @example const cache = createArchiveCache(1024); cache.put(runId, bytes, sha); cache.get(runId)
 */
export function createArchiveCache(budgetBytes = ARCHIVE_CACHE_BYTES) {
  // A Map iterates in insertion order: re-inserting on every hit keeps the oldest use first.
  const entries = new Map<string, CachedArchive & { size: number }>();
  let held = 0;
  const remove = (runId: string) => {
    const entry = entries.get(runId);
    if (!entry) return;
    entries.delete(runId);
    held -= entry.size;
  };
  return {
    put(runId: string, archive: CachedArchive): void {
      remove(runId);
      const { bytes, sha256, listing } = archive;
      const size = bytes.length + listingBytes(listing);
      if (size > budgetBytes) return;
      entries.set(runId, { bytes: compact(bytes), sha256, listing, size });
      held += size;
      for (const oldest of entries.keys()) {
        if (held <= budgetBytes) break;
        remove(oldest);
      }
    },
    /** The cached archive, now the most recently used; undefined when not (or no longer) held. */
    get(runId: string): CachedArchive | undefined {
      const entry = entries.get(runId);
      if (!entry) return undefined;
      entries.delete(runId);
      entries.set(runId, entry);
      return entry;
    },
    remove,
    clear(): void {
      entries.clear();
      held = 0;
    },
    /** What it holds: archives and their bytes (with listings), and the budget. */
    stats: () => ({ archives: entries.size, bytes: held, budgetBytes }),
  };
}
export type ArchiveCache = ReturnType<typeof createArchiveCache>;

/** `bytes` in a buffer of its own: zlib answers a small archive as a view of a 16 KiB chunk. */
function compact(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}
