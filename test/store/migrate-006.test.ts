/** Migration 006 (STYLE.md: a test per migration): webhook delivery records, gone with their account. */
import type BetterSqlite3 from 'better-sqlite3';
import { expect, test } from 'vitest';
import { Database } from '../../src/store/driver.js';
import { MIGRATIONS, runMigrations } from '../../src/store/migrate.js';

function databaseAt(version: number) {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  for (const [i, migrate] of MIGRATIONS.slice(0, version).entries()) {
    migrate(db);
    db.pragma(`user_version = ${i + 1}`);
  }
  return db;
}

const insertAccount = (db: BetterSqlite3.Database, id: string) =>
  db
    .prepare(
      `INSERT INTO accounts (id, name, features, token_balance, limits, download_mode, clock_mode, clock_now, created_at)
       VALUES (?, 'a', '[]', 0, '{}', 'auth', 'manual', 0, '2026-01-01T00:00:00.000Z')`,
    )
    .run(id);

const insertDelivery = (db: BetterSqlite3.Database, account: string) =>
  db
    .prepare(
      `INSERT INTO webhook_deliveries (account_id, event_id, event_type, endpoint_id, url, status, created_at)
       VALUES (?, 'evt_1', 'twin.processing', 'we_1', 'http://127.0.0.1:1/h', 'pending', 0)`,
    )
    .run(account);

test('migration 006 adds an empty webhook_deliveries table to a version 5 database', () => {
  const db = databaseAt(5);
  insertAccount(db, 'acct_1');
  runMigrations(db);
  expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  expect(db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get()).toEqual({ n: 0 });
  db.close();
});

test("an account's deliveries are deleted with it, another account's stay", () => {
  const db = databaseAt(6);
  insertAccount(db, 'acct_1');
  insertAccount(db, 'acct_2');
  insertDelivery(db, 'acct_1');
  insertDelivery(db, 'acct_2');
  db.prepare("DELETE FROM accounts WHERE id = 'acct_1'").run();
  expect(db.prepare('SELECT account_id, attempts FROM webhook_deliveries').all()).toEqual([
    { account_id: 'acct_2', attempts: '[]' },
  ]);
  expect(() => insertDelivery(db, 'acct_nope')).toThrow(/FOREIGN KEY/);
  db.close();
});
