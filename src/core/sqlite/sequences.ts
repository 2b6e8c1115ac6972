import type { Database } from './sqlite.js';

/** Persistent counters per id stream, so ids stay unique across restarts of a --db file. */
export function createSequenceRepo(db: Database) {
  const next = db.prepare<[string], { value: number }>(
    `INSERT INTO sequences (stream, value) VALUES (?, 1)
     ON CONFLICT (stream) DO UPDATE SET value = value + 1 RETURNING value`,
  );
  const clearScope = db.prepare<[string, string, string]>(
    'DELETE FROM sequences WHERE substr(stream, 1, length(?)) = ? AND stream NOT IN (SELECT value FROM json_each(?))',
  );
  return {
    next: (stream: string): number => next.get(stream)!.value,
    /** Restarts one scope's counters (`<scope>/<prefix>`) but those in `keep`, whose ids exist. */
    clearScope: (scope: string, keep: string[] = []): void =>
      void clearScope.run(`${scope}/`, `${scope}/`, JSON.stringify(keep)),
  };
}
export type SequenceRepo = ReturnType<typeof createSequenceRepo>;
