import type { Database } from 'better-sqlite3';
import { migrate001 } from './migrations/001-initial.js';
import { migrate002 } from './migrations/002-runtime.js';
import { migrate003 } from './migrations/003-clock-anchor.js';
import { migrate004 } from './migrations/004-webhook-endpoint-fields.js';
import { migrate005 } from './migrations/005-events.js';
import { migrate006 } from './migrations/006-webhook-deliveries.js';
import { migrate007 } from './migrations/007-runtime-persistence.js';
import { migrate008 } from './migrations/008-user-asset-lifecycle.js';
import { migrate009 } from './migrations/009-runs.js';
import { migrate010 } from './migrations/010-twins-on-runs.js';
import { migrate011 } from './migrations/011-archives-not-stored.js';
import { migrate012 } from './migrations/012-runs-store-less.js';
import { migrate013 } from './migrations/013-packed-text.js';

/** Migrations in order; migration N sets `user_version` to N. Append only, never edit one. */
export const MIGRATIONS: ReadonlyArray<(db: Database) => void> = [
  migrate001,
  migrate002,
  migrate003,
  migrate004,
  migrate005,
  migrate006,
  migrate007,
  migrate008,
  migrate009,
  migrate010,
  migrate011,
  migrate012,
  migrate013,
];

/**
 * Brings the database to the newest schema, one synchronous transaction per migration.
 * Refuses a database written by a newer emulator rather than guessing at its schema.
 */
export function runMigrations(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The database has schema version ${current}, newer than this emulator's ${MIGRATIONS.length}. Use a newer svc-emulator or another --db file.`,
    );
  }
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    const migration = MIGRATIONS[version - 1]!;
    db.transaction(() => {
      migration(db);
      db.pragma(`user_version = ${version}`);
    })();
  }
}
