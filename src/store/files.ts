import type { Database } from 'better-sqlite3';
import type { FileEntry } from '../domain/records.js';

export interface FilePage {
  data: FileEntry[];
  hasMore: boolean;
}

/** Runs' file listings by (run, path), in byte order: `after` paging is one index range scan. */
export function createFileRepo(db: Database) {
  const table = 'run_files';
  const owner = 'run_id';
  const insert = db.prepare(
    `INSERT INTO ${table} (${owner}, path, bytes, sha256) VALUES (?, ?, ?, ?)`,
  );
  const page = db.prepare<[string, string, number], FileEntry>(
    `SELECT path, bytes, sha256 FROM ${table} WHERE ${owner} = ? AND path > ? ORDER BY path LIMIT ?`,
  );
  const all = db.prepare<[string], FileEntry>(
    `SELECT path, bytes, sha256 FROM ${table} WHERE ${owner} = ? ORDER BY path`,
  );
  const clear = db.prepare(`DELETE FROM ${table} WHERE ${owner} = ?`);
  const count = db.prepare<[string], { n: number }>(
    `SELECT COUNT(*) AS n FROM ${table} WHERE ${owner} = ?`,
  );
  return {
    replace: (ownerId: string, files: FileEntry[]) => {
      clear.run(ownerId);
      for (const f of files) insert.run(ownerId, f.path, f.bytes, f.sha256);
    },
    page: (ownerId: string, after: string, limit: number): FilePage => {
      const rows = page.all(ownerId, after, limit + 1);
      return { data: rows.slice(0, limit), hasMore: rows.length > limit };
    },
    all: (ownerId: string): FileEntry[] => all.all(ownerId),
    count: (ownerId: string): number => count.get(ownerId)?.n ?? 0,
  };
}
export type FileRepo = ReturnType<typeof createFileRepo>;
