import type { Database } from 'better-sqlite3';

/**
 * One run engine, many kinds (DESIGN.md section 7): the evaluations table becomes `runs`, each
 * row naming its kind. Every row so far is an evaluation. SQLite (3.26+) renames the foreign
 * keys of `run_logs`, `run_files` and `archives` with the table.
 */
export function migrate009(db: Database): void {
  db.exec(`
    ALTER TABLE evaluations RENAME TO runs;
    ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'evaluation';
    DROP INDEX evaluations_status;
    CREATE INDEX runs_kind ON runs(account_id, kind, seq);
    CREATE INDEX runs_kind_status ON runs(account_id, kind, json_extract(state, '$.status'), seq);
  `);
}
