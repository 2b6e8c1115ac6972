/** Migration 008 (STYLE.md: a test per migration): user assets gain a list order and a lifecycle. */

import { expect, test } from 'vitest';
import { Database } from '../../src/store/driver.js';
import { MIGRATIONS, runMigrations } from '../../src/store/migrate.js';
import { migrate008 } from '../../src/store/migrations/008-user-asset-lifecycle.js';

test('migration 008 keeps seeded user assets, in their order, with an empty lifecycle', () => {
  const db = new Database(':memory:');
  const at = MIGRATIONS.indexOf(migrate008);
  expect(at).toBeGreaterThan(0);
  for (const [i, migrate] of MIGRATIONS.slice(0, at).entries()) {
    migrate(db);
    db.pragma(`user_version = ${i + 1}`);
  }
  db.prepare(
    `INSERT INTO accounts (id, name, features, token_balance, limits, download_mode, clock_mode,
       clock_now, created_at) VALUES ('acct_1', 'a', '[]', 0, '{}', 'auth', 'manual', 0, 't')`,
  ).run();
  const insert = db.prepare(
    `INSERT INTO user_assets (id, account_id, kind, name, status, created_at)
     VALUES (?, 'acct_1', ?, ?, ?, 't')`,
  );
  insert.run('obj_b', 'object', 'b', 'pending');
  insert.run('env_a', 'environment', 'a', 'validated');
  runMigrations(db);
  expect(db.prepare('SELECT * FROM user_assets ORDER BY seq').all()).toEqual([
    {
      seq: 1,
      id: 'obj_b',
      account_id: 'acct_1',
      kind: 'object',
      name: 'b',
      status: 'pending',
      created_at: 't',
      description: null,
      metadata: '{}',
      ready_at: null,
      outcome: null,
    },
    expect.objectContaining({ seq: 2, id: 'env_a', status: 'validated' }),
  ]);
  db.close();
});
