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

/** After `checkSchemaVersion`, each migration in its own transaction that sets `user_version`. */
export function runMigrations(db: Database): void {
  const current = checkSchemaVersion(db);
  const first = current === 0 ? 0 : current - BASELINE_VERSION + 1;
  for (let i = first; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      MIGRATIONS[i]!(db);
      db.pragma(`user_version = ${BASELINE_VERSION + i}`);
    })();
  }
}
