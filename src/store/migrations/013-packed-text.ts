import type { Database } from 'better-sqlite3';

/**
 * A succeeded run's state and an `Idempotency-Key` replay's body are written packed from now on
 * (issue 12 item 4; store/packed-text.ts): BLOBs an older emulator cannot read. Nothing is
 * rewritten: rows written before keep their text and are read as they are. The version is raised
 * so that an older emulator refuses the file (`runMigrations`) instead of failing on its first
 * packed row.
 */
export function migrate013(_db: Database): void {}
