import type { FileEntry } from '../../core/contract.js';
import type { Page } from '../../core/sqlite/cursor-list.js';
import type { Database } from '../../core/sqlite/sqlite.js';

export type FilePage = Page<FileEntry>;

/** Runs' file listings by (run, path), in byte order: `after` paging is one index range scan. */
export function createFileRepo(db: Database) {
  const insert = db.prepare(
    'INSERT INTO run_files (run_id, path, bytes, sha256) VALUES (?, ?, ?, ?)',
  );
  const page = db.prepare<[string, string, number], FileEntry>(
    'SELECT path, bytes, sha256 FROM run_files WHERE run_id = ? AND path > ? ORDER BY path LIMIT ?',
  );
  const clear = db.prepare('DELETE FROM run_files WHERE run_id = ?');
  return {
    replace: (runId: string, files: FileEntry[]) => {
      clear.run(runId);
      for (const f of files) insert.run(runId, f.path, f.bytes, f.sha256);
    },
    page: (runId: string, after: string, limit: number): Page<FileEntry> => {
      const rows = page.all(runId, after, limit + 1);
      return { data: rows.slice(0, limit), hasMore: rows.length > limit };
    },
  };
}
