/**
 * The store opens a database of its own schema version, makes a new one with the schema the migrations make (in one step: migrate.ts), and
 * refuses, without writing to it, a file written by a newer emulator or by the older layouts of
 * the unreleased emulator before the baseline (versions 1 to 13). The CLI exits 2 with that
 * (schema-version-cli.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openStore } from '../../src/areas/store.js';
import { Database } from '../../src/core/sqlite/driver.js';
import { SCHEMA_VERSION } from '../../src/core/sqlite/migrate.js';
import { baseline } from '../../src/core/sqlite/migrations/100-baseline.js';
import { webhookRetries } from '../../src/core/sqlite/migrations/101-webhook-retries.js';
import { receiverChaos } from '../../src/core/sqlite/migrations/102-receiver-chaos.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database file at `user_version` = `version`, holding one table of its own. */
function fileAt(name: string, version: number): string {
  const file = join(dir, name);
  const db = new Database(file);
  db.exec('CREATE TABLE evaluations (id TEXT)');
  db.pragma(`user_version = ${version}`);
  db.close();
  return file;
}

/** What the file holds: its version, its tables and its journal mode. */
function contents(file: string) {
  const db = new Database(file, { readonly: true });
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all();
  const seen = {
    version: db.pragma('user_version', { simple: true }),
    tables,
    journal: db.pragma('journal_mode', { simple: true }),
  };
  db.close();
  return seen;
}

test('a new database gets the baseline and later migrations at version 102, and opens again as it is', () => {
  expect(SCHEMA_VERSION).toBe(102);
  const file = join(dir, 'new.db');
  openStore(file).close();
  const made = contents(file);
  expect(made.version).toBe(102);
  expect(made.tables).toEqual([
    'accounts',
    'api_keys',
    'events',
    'fault_rules',
    'idempotency_records',
    'journal',
    'run_files',
    'run_logs',
    'runs',
    'scenarios',
    'sequences',
    'sqlite_sequence',
    'user_assets',
    'webhook_deliveries',
    'webhook_endpoints',
  ]);
  openStore(file).close();
  expect(contents(file)).toEqual(made);
  const memory = openStore(':memory:');
  expect(memory.db.pragma('user_version', { simple: true })).toBe(102);
  memory.close();
});

test('a database at the baseline (100) is migrated: its pending deliveries are due at once', () => {
  const file = join(dir, 'baseline.db');
  const db = new Database(file);
  baseline(db);
  db.pragma('user_version = 100');
  db.pragma('foreign_keys = OFF');
  db.exec(`INSERT INTO webhook_deliveries
    (account_id, event_id, event_type, endpoint_id, url, status, created_at)
    VALUES ('acct_1', 'evt_1', 'evaluation.queued', 'whe_1', 'http://x', 'pending', 0)`);
  db.close();
  const store = openStore(file);
  expect(store.db.pragma('user_version', { simple: true })).toBe(102);
  expect(store.db.prepare('SELECT next_at, series, chaos FROM webhook_deliveries').get()).toEqual({
    next_at: 0,
    series: 1,
    chaos: null,
  });
  store.close();
});

/** A database's schema as SQLite keeps it: every object's statement, and every table's columns. */
function schemaOf(db: InstanceType<typeof Database>) {
  const objects = db
    .prepare<[], { type: string; name: string; tbl_name: string; sql: string | null }>(
      'SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid',
    )
    .all();
  const columns = objects
    .filter((o) => o.type === 'table')
    .map((o) => db.pragma(`table_info(${o.name})`));
  return { objects, columns };
}

test('a new database has the schema that running every migration in turn makes, in the same order', () => {
  const migrated = new Database(':memory:');
  for (const migration of [baseline, webhookRetries, receiverChaos]) migration(migrated);
  for (const path of [':memory:', join(dir, 'fresh.db')]) {
    const store = openStore(path);
    expect(schemaOf(store.db)).toEqual(schemaOf(migrated));
    store.close();
  }
  migrated.close();
});

test('a file of an older layout is refused with what to do, and left as it was', () => {
  for (const version of [1, 5, 13, 99]) {
    const file = fileAt(`old-${version}.db`, version);
    const before = contents(file);
    expect(() => openStore(file)).toThrow(
      `The database file ${file} was written by an older, unreleased svc-emulator (schema version ${version}; this one reads 100 and later) and cannot be opened. Delete the file, or start with another --db file.`,
    );
    expect(contents(file)).toEqual(before);
  }
});

test('a file written by a newer emulator is refused, and left as it was', () => {
  const file = fileAt('newer.db', 103);
  const before = contents(file);
  expect(() => openStore(file)).toThrow(
    "The database has schema version 103, newer than this emulator's 102. Use a newer svc-emulator or another --db file.",
  );
  expect(contents(file)).toEqual(before);
});
