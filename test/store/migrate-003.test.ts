/** Migration 003 (STYLE.md: a test per migration): accounts get the wall anchor of their clock. */

import { expect, test } from 'vitest';
import { Database } from '../../src/store/driver.js';
import { MIGRATIONS, runMigrations } from '../../src/store/migrate.js';

test('migration 003 adds clock_wall to an existing account row as NULL; the runner ends at the newest user_version', () => {
  const db = new Database(':memory:');
  for (const [i, migrate] of MIGRATIONS.slice(0, 2).entries()) {
    migrate(db);
    db.pragma(`user_version = ${i + 1}`);
  }
  db.prepare(
    `INSERT INTO accounts (id, name, features, token_balance, limits, download_mode, clock_mode, clock_now, created_at)
     VALUES ('acct_1', 'a', '[]', 0, '{}', 'auth', 'realtime', 1000, '2026-01-01T00:00:01.000Z')`,
  ).run();
  runMigrations(db);
  expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  expect(db.prepare('SELECT clock_now, clock_wall FROM accounts').get()).toEqual({
    clock_now: 1000,
    clock_wall: null,
  });
  db.close();
});
