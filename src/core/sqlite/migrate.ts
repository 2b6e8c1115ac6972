import { Database as Driver } from './driver.js';
import { baseline } from './migrations/100-baseline.js';
import { webhookRetries } from './migrations/101-webhook-retries.js';
import { receiverChaos } from './migrations/102-receiver-chaos.js';
import type { Database } from './sqlite.js';

/** The baseline's schema version: above the 1 to 13 of older layouts, so none reads as current. */
export const BASELINE_VERSION = 100;

/** Migrations in order: the baseline, then any later one, which sets the version after it. */
const MIGRATIONS: ReadonlyArray<(db: Database) => void> = [baseline, webhookRetries, receiverChaos];

/** The schema version this emulator writes. */
export const SCHEMA_VERSION = BASELINE_VERSION + MIGRATIONS.length - 1;

/** The schema version (0 when new), refusing a newer emulator's or an older layout's file. */
export function checkSchemaVersion(db: Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `The database has schema version ${current}, newer than this emulator's ${SCHEMA_VERSION}. Use a newer svc-emulator or another --db file.`,
    );
  }
  if (current !== 0 && current < BASELINE_VERSION) {
    throw new Error(
      `The database file ${db.name} was written by an older, unreleased svc-emulator (schema version ${current}; this one reads ${BASELINE_VERSION} and later) and cannot be opened. Delete the file, or start with another --db file.`,
    );
  }
  return current;
}

/**
 * After `checkSchemaVersion`: a new database gets the schema the migrations make in one step
 * (`NEW_SCHEMA`), an older one each pending migration in its own transaction that sets
 * `user_version`.
 */
export function runMigrations(db: Database): void {
  const current = checkSchemaVersion(db);
  if (current === 0) {
    db.transaction(() => {
      db.exec(NEW_SCHEMA);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  } else migrateFrom(db, current);
}

/** The migrations after `current` (0: all of them), each in its own transaction. */
function migrateFrom(db: Database, current: number): void {
  const first = current === 0 ? 0 : current - BASELINE_VERSION + 1;
  for (let i = first; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      MIGRATIONS[i]!(db);
      db.pragma(`user_version = ${BASELINE_VERSION + i}`);
    })();
  }
}

/**
 * The schema the migrations make, as SQLite keeps it: each table's and index's `CREATE` as the
 * migrations left it (an `ALTER TABLE ... ADD COLUMN` rewrites its table's), in the order
 * `sqlite_master` holds them, read from a scratch in-memory database migrated in turn.
 */
function schemaOfMigrations(): string {
  const scratch = new Driver(':memory:');
  try {
    migrateFrom(scratch, 0);
    return scratch
      .prepare<[], string>(
        `SELECT sql FROM sqlite_master
          WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`,
      )
      .pluck()
      .all()
      .map((sql) => `${sql};`)
      .join('\n');
  } finally {
    scratch.close();
  }
}

/**
 * What a new database runs, made once as this module loads: replaying the migrations on each new
 * store re-read the whole schema at every `ALTER` and took most of a new in-memory store's time
 * (a test run opens a thousand).
 */
const NEW_SCHEMA = schemaOfMigrations();
