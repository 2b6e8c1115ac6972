/**
 * Migration 011 (STYLE.md: a test per migration): the `archives` table goes; archives are rebuilt
 * from their runs when read (runtime/run-archive.ts), and the runs themselves stay.
 */

import { expect, test } from 'vitest';
import { Database } from '../../src/store/driver.js';
import { MIGRATIONS } from '../../src/store/migrate.js';
import { migrate011 } from '../../src/store/migrations/011-archives-not-stored.js';

const tables = (db: InstanceType<typeof Database>) =>
  db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((t) => t.name);

test('migration 011 drops the archives table and keeps the runs', () => {
  const db = new Database(':memory:');
  const at = MIGRATIONS.indexOf(migrate011);
  expect(at).toBeGreaterThan(0);
  for (const [i, migrate] of MIGRATIONS.slice(0, at).entries()) {
    migrate(db);
    db.pragma(`user_version = ${i + 1}`);
  }
  db.prepare(
    `INSERT INTO accounts (id, name, features, token_balance, limits, download_mode, clock_mode,
       clock_now, created_at) VALUES ('acct_1', 'a', '[]', 0, '{}', 'auth', 'manual', 0, 't')`,
  ).run();
  db.prepare(
    `INSERT INTO runs (id, account_id, request, state, created_at, kind)
     VALUES ('eval_1', 'acct_1', '{}', '{"status":"succeeded"}', 't', 'evaluation')`,
  ).run();
  db.prepare("INSERT INTO archives (run_id, bytes, sha256) VALUES ('eval_1', x'00', 'a')").run();
  expect(tables(db)).toContain('archives');

  migrate011(db);

  expect(tables(db)).not.toContain('archives');
  expect(db.prepare('SELECT id FROM runs').all()).toEqual([{ id: 'eval_1' }]);
});
