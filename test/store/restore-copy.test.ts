/**
 * A whole world's restore copies each large table's stored records back (SQLite's transfer of
 * `INSERT INTO t SELECT * FROM copy`), not a row at a time: any trigger on a table, or a copy
 * whose schema differs from the table's, turns it into a write a row. A trigger on the runs did
 * (a 1,000-run restore went from under 10 ms to 16). The small tables the remembered credentials
 * watch with triggers (accounts, api_keys; src/core/accounts/credentials.ts) are copied row by row.
 */
import { expect, test } from 'vitest';
import { copyName, quote, worldTables } from '../../src/areas/snapshots/snapshot-shapes.js';
import { testEmulator } from '../helpers.js';

/** The tables copied a row at a time, on purpose: few rows, watched by triggers. */
const ROW_BY_ROW = ['accounts', 'api_keys'];

test("a whole world's restore moves every other table's stored records as they are", async () => {
  const { emulator, control } = testEmulator();
  await control('POST', '/snapshots', { name: 'world' });
  const db = emulator.deps.store.db;
  const tag = emulator.deps.store.snapshots.list()[0]!.tag;
  // The restore brackets its copy with foreign keys off (snapshot-tables.ts), and so does this.
  db.pragma('foreign_keys = OFF');
  try {
    const moves = worldTables(db).map(({ name }) => {
      const plan = db
        .prepare(`EXPLAIN INSERT INTO main.${quote(name)} SELECT * FROM ${copyName(tag, name)}`)
        .all() as { opcode: string }[];
      return [name, plan.some((op) => op.opcode === 'RowData') ? 'records' : 'rows'];
    });
    expect(moves.length).toBeGreaterThan(10);
    expect(Object.fromEntries(moves)).toEqual(
      Object.fromEntries(
        moves.map(([name]) => [name, ROW_BY_ROW.includes(name!) ? 'rows' : 'records']),
      ),
    );
  } finally {
    db.pragma('foreign_keys = ON');
  }
});
