/**
 * Migration 004 (STYLE.md: a test per migration): webhook endpoints get `description` and
 * `metadata`; an endpoint stored before reads back with null and `{}`.
 */

import { expect, test } from 'vitest';
import { Database } from '../../src/store/driver.js';
import { MIGRATIONS, runMigrations } from '../../src/store/migrate.js';
import { createWebhookEndpointRepo } from '../../src/store/webhook-endpoints.js';

test('migration 004 gives an existing webhook endpoint a null description and empty metadata', () => {
  const db = new Database(':memory:');
  for (const [i, migrate] of MIGRATIONS.slice(0, 3).entries()) {
    migrate(db);
    db.pragma(`user_version = ${i + 1}`);
  }
  db.prepare(
    `INSERT INTO accounts (id, name, features, token_balance, limits, download_mode, clock_mode, clock_now, created_at)
     VALUES ('acct_1', 'a', '[]', 0, '{}', 'auth', 'manual', 0, '2026-01-01T00:00:00.000Z')`,
  ).run();
  db.prepare(
    `INSERT INTO webhook_endpoints (id, account_id, url, events, created_at)
     VALUES ('whe_1', 'acct_1', 'https://example.com/h', '["*"]', '2026-01-01T00:00:00.000Z')`,
  ).run();
  runMigrations(db);
  expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  expect(createWebhookEndpointRepo(db).get('acct_1', 'whe_1')).toEqual({
    id: 'whe_1',
    accountId: 'acct_1',
    url: 'https://example.com/h',
    events: ['*'],
    description: null,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    deletedAt: null,
  });
  db.close();
});
