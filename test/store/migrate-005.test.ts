/** Migration 005 (STYLE.md: a test per migration): the event log, gone with its account. */
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

const insertEvent = (db: BetterSqlite3.Database, id: string, account: string) =>
  db
    .prepare(
      `INSERT INTO events (id, account_id, type, resource_id, previous_status, snapshot, created_at)
       VALUES (?, ?, 'twin.processing', 'twin_1', 'queued', '{}', '2026-01-01T00:00:01.000Z')`,
    )
    .run(id, account);

test('migration 005 adds an empty events table to a version 4 database and sets user_version 5', () => {
  const db = databaseAt(4);
  insertAccount(db, 'acct_1');
  runMigrations(db);
  expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  expect(db.prepare('SELECT COUNT(*) AS n FROM events').get()).toEqual({ n: 0 });
  db.close();
});

test("an account's events are deleted with it, another account's stay", () => {
  const db = databaseAt(5);
  insertAccount(db, 'acct_1');
  insertAccount(db, 'acct_2');
  insertEvent(db, 'evt_1', 'acct_1');
  insertEvent(db, 'evt_2', 'acct_2');
  db.prepare("DELETE FROM accounts WHERE id = 'acct_1'").run();
  expect(db.prepare('SELECT id, account_id FROM events').all()).toEqual([
    { id: 'evt_2', account_id: 'acct_2' },
  ]);
  expect(() => insertEvent(db, 'evt_3', 'acct_nope')).toThrow(/FOREIGN KEY/);
  db.close();
});
