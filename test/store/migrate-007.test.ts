/** Migration 007 (STYLE.md: a test per migration): fault rules and the journal on file. */

import { expect, test } from 'vitest';
import { Database } from '../../src/store/driver.js';
import { MIGRATIONS, runMigrations } from '../../src/store/migrate.js';
import { migrate007 } from '../../src/store/migrations/007-runtime-persistence.js';

test('migration 007 adds empty fault_rules and journal tables to an older database', () => {
  const db = new Database(':memory:');
  const at = MIGRATIONS.indexOf(migrate007);
  expect(at).toBeGreaterThan(0);
  for (const [i, migrate] of MIGRATIONS.slice(0, at).entries()) {
    migrate(db);
    db.pragma(`user_version = ${i + 1}`);
  }
  expect(() => db.prepare('SELECT 1 FROM journal').get()).toThrow(/no such table/);
  runMigrations(db);
  expect(db.prepare('SELECT COUNT(*) AS n FROM fault_rules').get()).toEqual({ n: 0 });
  expect(db.prepare('SELECT COUNT(*) AS n FROM journal').get()).toEqual({ n: 0 });
  db.close();
});
