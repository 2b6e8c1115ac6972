/**
 * The CLI given a database file it refuses (schema-version.test.ts: the store's own checks) exits 2
 * saying why, as a process: the slow project.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { Database } from '../../src/core/sqlite/driver.js';
import { runCli } from '../cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-schema-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the CLI given a file of an older layout exits 2 and says why', async () => {
  // A file of the layouts before the baseline (versions 1 to 13).
  const file = join(dir, 'cli-old.db');
  const db = new Database(file);
  db.exec('CREATE TABLE evaluations (id TEXT)');
  db.pragma('user_version = 12');
  db.close();
  const child = await runCli(['--db', file, '--port', '0']);
  expect(child.code).toBe(2);
  expect(child.stderr).toContain(
    `svc-emulator: cannot start: The database file ${file} was written by an older, unreleased svc-emulator (schema version 12; this one reads 100 and later) and cannot be opened. Delete the file, or start with another --db file.`,
  );
});
