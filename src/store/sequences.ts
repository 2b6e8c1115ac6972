import type { Database } from 'better-sqlite3';

/** Persistent counters per id stream, so ids stay unique across restarts of a --db file. */
export function createSequenceRepo(db: Database) {
  const next = db.prepare<[string], { value: number }>(
    `INSERT INTO sequences (stream, value) VALUES (?, 1)
     ON CONFLICT (stream) DO UPDATE SET value = value + 1 RETURNING value`,
  );
  return { next: (stream: string): number => next.get(stream)!.value };
}
export type SequenceRepo = ReturnType<typeof createSequenceRepo>;
