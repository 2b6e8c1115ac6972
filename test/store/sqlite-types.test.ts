import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { expect, test } from 'vitest';
import { Database } from '../../src/core/sqlite/driver.js';
import type * as Sqlite from '../../src/core/sqlite/sqlite.js';

/**
 * src/core/sqlite/sqlite.ts declares the part of better-sqlite3 the store uses, so the published
 * declarations need no `@types/better-sqlite3`. These assignments are checked by `tsc`: if the
 * declaration promised a member or a signature better-sqlite3's own types lack, typecheck fails.
 */
const asDeclared = (db: BetterSqlite3.Database): Sqlite.Database => db;
const constructorAsDeclared = (ctor: typeof BetterSqlite3): Sqlite.DatabaseConstructor => ctor;
const statementAsDeclared = (
  s: BetterSqlite3.Statement<[string], { n: number }>,
): Sqlite.Statement<[string], { n: number }> => s;

test("better-sqlite3's types satisfy the store's declaration of them", () => {
  expect([asDeclared, constructorAsDeclared, statementAsDeclared]).toHaveLength(3);
  const db = new Database(':memory:');
  const one = db.prepare<[number], { n: number }>('SELECT ? AS n');
  expect(one.get(7)).toEqual({ n: 7 });
  expect(db.transaction((a: number, b: number) => a + b)(2, 3)).toBe(5);
  expect(db.serialize()).toBeInstanceOf(Buffer);
  db.close();
});

test('no source file but the driver names better-sqlite3, and it only loads it', () => {
  const naming: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/from 'better-sqlite3'|import\('better-sqlite3'\)/.test(readFileSync(path, 'utf8')))
        naming.push(path);
    }
  };
  walk(join(import.meta.dirname, '..', '..', 'src'));
  expect(naming).toEqual([]);
});
