/**
 * Copies of the world's tables for snapshots, kept in an attached database (`snapshots`) and
 * copied both ways by SQLite itself (`INSERT ... SELECT`): no row passes through JavaScript on a
 * save or a restore, which is what keeps a restore within milliseconds.
 *
 * That database is SQLite's private temporary one (`ATTACH ''`): its pages stay in a page cache
 * of 16 MB and spill to a file SQLite deletes as it opens it (no name left on disk, even after a
 * `kill -9`). In memory, 201 snapshots of a 3,000-run world took 2 GB, and deleting them gave
 * nothing back; here the process holds the cache, and a dropped copy's pages are reused. The
 * journal's entries a copy keeps are there too, as one JSON text a copy (`journals`): held as
 * objects, 201 snapshots of that world's 3,000 calls took 290 MB of the process's memory.
 */

import type { Database, Statement } from '../../core/sqlite/sqlite.js';
import type { JournalEntry } from '../requests/journal-entry.js';
import { copyName as copyIn, quote, type TableShape, worldTables } from './snapshot-shapes.js';

/** The page size of the snapshots' database. */
const SNAPSHOT_PAGE_BYTES = 8192;

/** The AUTOINCREMENT counters: a whole world's copy keeps them so new rows number on alike. */
const COUNTERS = 'sqlite_sequence';

/** Rows and their columns, as a snapshot file holds them. */
export interface TableCopy {
  columns: string[];
  rows: unknown[][];
}

/**
 * Saves, restores, reads and writes table copies under a tag; `account` limits them to one
 * account's rows. Every method runs in the caller's transaction, if any.
 * @example const copies = createSnapshotTables(db); copies.save('s1', null); copies.restore('s1', null)
 */
export function createSnapshotTables(db: Database, schema = 'snapshots') {
  let tables: TableShape[] | undefined;
  const copyName = (tag: string, table: string) => copyIn(tag, table, schema);
  const shapes = () => {
    if (tables) return tables;
    db.exec(`ATTACH DATABASE '' AS ${schema}`);
    // 8 KiB pages, set before the first table. The world's 16 KiB (store.ts) took 124 MB of RSS
    // for this database's 16 MB page cache where 8 KiB pages take 92; a copy's rows still move as
    // stored records, and a restore was no slower (docs/development.md).
    db.pragma(`${schema}.page_size = ${SNAPSHOT_PAGE_BYTES}`);
    db.exec(`CREATE TABLE ${schema}.journals (tag TEXT PRIMARY KEY, body TEXT NOT NULL)`);
    tables = worldTables(db);
    return tables;
  };
  /** The pages a database's tables hold (its free pages left out), in bytes. */
  const used = (database: string) => {
    const pragma = (name: string) => db.pragma(`${database}.${name}`, { simple: true }) as number;
    return (pragma('page_count') - pragma('freelist_count')) * pragma('page_size');
  };
  /** The columns that order each table's rows, by table name. */
  const keyOf = (name: string) => shapes().find((t) => t.name === name)?.key ?? ['rowid'];
  /** The tables a copy of this scope holds, the counters last for a whole world. */
  const scoped = (account: string | null): { name: string; columns: string[] }[] => {
    const own = shapes().filter((t) => account === null || t.accountRows !== null);
    return account === null ? [...own, { name: COUNTERS, columns: ['name', 'seq'] }] : own;
  };
  const params = (account: string) => ({ account, prefix: `${account}/` });
  /** A whole world's restore, prepared once per copy. */
  const restores = new Map<string, Statement[]>();
  /**
   * The journal last read, with its copy's tag: a suite restores one snapshot before each test,
   * and parsing its text took 2.8 of a restore's 10 ms with 1,000 entries.
   */
  let lastJournal: { tag: string; entries: readonly JournalEntry[] } | undefined;
  /** Keeps `entries` as the journal of the copy under `tag` (oldest first). */
  const saveJournal = (tag: string, entries: readonly JournalEntry[]): void => {
    shapes();
    if (lastJournal?.tag === tag) lastJournal = undefined;
    db.prepare(`INSERT OR REPLACE INTO ${schema}.journals (tag, body) VALUES (?, ?)`).run(
      tag,
      JSON.stringify(entries),
    );
  };
  /** The journal of the copy under `tag` as JSON text (`[]` when it keeps none). */
  const journalText = (tag: string): string => {
    shapes();
    return (
      db
        .prepare<[string], string>(`SELECT body FROM ${schema}.journals WHERE tag = ?`)
        .pluck()
        .get(tag) ?? '[]'
    );
  };
  /** The journal of the copy under `tag`, oldest first; the same entries each time (do not change them). */
  const journal = (tag: string): readonly JournalEntry[] => {
    if (lastJournal?.tag !== tag)
      lastJournal = { tag, entries: JSON.parse(journalText(tag)) as JournalEntry[] };
    return lastJournal.entries;
  };

  /** Empty copies of the scope's tables under `tag`. */
  const createCopies = (tag: string, account: string | null) => {
    for (const table of shapes())
      if (account === null || table.accountRows !== null) db.exec(table.copySchema(tag, schema));
    if (account === null) db.exec(`CREATE TABLE ${copyName(tag, COUNTERS)} (name, seq)`);
  };

  return {
    /** The tables and columns a copy of this scope holds, in order. */
    schema: scoped,
    /** The bytes every copy takes together, as the snapshots' database counts its pages. */
    storedBytes: (): number => (tables ? used(schema) : 0),
    /**
     * About what a copy of the whole world takes: the bytes of the world's pages, less for each
     * table and index what its first page is larger than a page of the copies (an empty world's
     * tables take a page each).
     */
    worldBytes(): number {
      const pageBytes = db.pragma('main.page_size', { simple: true }) as number;
      const trees = db
        .prepare<[], number>('SELECT count(*) FROM main.sqlite_master WHERE rootpage > 0')
        .pluck()
        .get()!;
      return used('main') - trees * Math.max(0, pageBytes - SNAPSHOT_PAGE_BYTES);
    },
    /** Copies the world (or one account's rows) under `tag`; answers each table's row count. */
    save(tag: string, account: string | null): Record<string, number> {
      createCopies(tag, account);
      const counts: Record<string, number> = {};
      for (const table of shapes()) {
        if (account !== null && table.accountRows === null) continue;
        // A whole table is copied as is (a transfer of stored records); an account's rows in order.
        const where = account === null ? '' : ` WHERE ${table.accountRows}${table.order}`;
        db.prepare(
          `INSERT INTO ${copyName(tag, table.name)} SELECT * FROM main.${quote(table.name)}${where}`,
        ).run(account === null ? {} : params(account));
        counts[table.name] = count(tag, table.name);
      }
      if (account === null)
        db.exec(`INSERT INTO ${copyName(tag, COUNTERS)} SELECT * FROM main.${COUNTERS}`);
      return counts;
    },
    /**
     * One account's rows of the whole world's copy `from`, as that account's copy under `tag`,
     * with its own entries of that copy's journal.
     */
    extract(from: string, tag: string, account: string): Record<string, number> {
      createCopies(tag, account);
      saveJournal(
        tag,
        journal(from).filter((e) => e.account_id === account),
      );
      const counts: Record<string, number> = {};
      for (const table of shapes()) {
        if (table.accountRows === null) continue;
        const where = table.accountRows.replaceAll('main.runs', copyName(from, 'runs'));
        db.prepare(
          `INSERT INTO ${copyName(tag, table.name)} SELECT * FROM ${copyName(from, table.name)} WHERE ${where}${table.order}`,
        ).run(params(account));
        counts[table.name] = count(tag, table.name);
      }
      return counts;
    },
    /** Sets a copied account's clock to `now`, anchored when next used (not where it ran). */
    pinClock(tag: string, accountId: string, now: number): void {
      db.prepare(
        `UPDATE ${copyName(tag, 'accounts')} SET clock_now = ?, clock_wall = NULL WHERE id = ?`,
      ).run(now, accountId);
    },
    /**
     * Puts a copy back: the whole world's replaces every table; an account's replaces that
     * account's rows only, renumbering its `seq` keys past the others' where they now collide.
     */
    restore(tag: string, account: string | null): void {
      if (account === null) restoreWorld(tag);
      else restoreAccount(tag, account);
    },
    /**
     * Up to `limit` rows of a copy's table, BLOBs as Buffers, after the row whose key was `after`
     * (null: from the first), in the order the table holds them; `last` is the key to page on.
     */
    page(tag: string, table: string, after: unknown[] | null, limit: number) {
      const key = keyOf(table);
      const keys = key.join(', ');
      const from = after ? ` WHERE (${keys}) > (${key.map(() => '?').join(', ')})` : '';
      const select = db
        .prepare(`SELECT ${keys}, * FROM ${copyName(tag, table)}${from} ORDER BY ${keys} LIMIT ?`)
        .raw();
      const found = select.all(...(after ?? []), limit) as unknown[][];
      return {
        rows: found.map((row) => row.slice(key.length)),
        last: found.length > 0 ? found.at(-1)!.slice(0, key.length) : null,
      };
    },
    /** Makes a copy under `tag` from rows read back (an upload); the caller checked their shape. */
    write(tag: string, account: string | null, data: Record<string, TableCopy>): void {
      createCopies(tag, account);
      for (const [name, { columns, rows }] of Object.entries(data)) {
        const marks = columns.map(() => '?').join(', ');
        const insert = db.prepare(`INSERT INTO ${copyName(tag, name)} VALUES (${marks})`);
        for (const row of rows) insert.run(row);
      }
    },
    saveJournal,
    journalText,
    journal,
    /** Drops the copy under `tag`. */
    drop(tag: string, account: string | null): void {
      restores.delete(tag);
      for (const { name } of scoped(account))
        db.exec(`DROP TABLE IF EXISTS ${copyName(tag, name)}`);
      db.prepare(`DELETE FROM ${schema}.journals WHERE tag = ?`).run(tag);
      if (lastJournal?.tag === tag) lastJournal = undefined;
    },
  };

  function count(tag: string, table: string): number {
    return db
      .prepare<[], number>(`SELECT count(*) FROM ${copyName(tag, table)}`)
      .pluck()
      .get()!;
  }

  function restoreWorld(tag: string): void {
    let statements = restores.get(tag);
    if (!statements) {
      statements = [...shapes(), { name: COUNTERS }].flatMap(({ name }) => [
        db.prepare(`DELETE FROM main.${quote(name)}`),
        db.prepare(`INSERT INTO main.${quote(name)} SELECT * FROM ${copyName(tag, name)}`),
      ]);
      restores.set(tag, statements);
    }
    // The pragma is a no-op inside a transaction, so it brackets it (as store.clear() does); with
    // foreign keys off, SQLite empties a table at once and copies the rows as stored.
    db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        for (const statement of statements) statement.run();
      })();
    } finally {
      db.pragma('foreign_keys = ON');
    }
  }

  function restoreAccount(tag: string, account: string): void {
    const own = shapes().filter((t) => t.accountRows !== null);
    db.transaction(() => {
      // Children first: their filters may read the parent rows (run_logs through runs).
      for (const table of [...own].reverse())
        db.prepare(`DELETE FROM main.${quote(table.name)} WHERE ${table.accountRows}`).run(
          params(account),
        );
      for (const table of own) {
        const source = copyName(tag, table.name);
        const target = `main.${quote(table.name)}`;
        const columns = table.columns.map(quote);
        const select = table.seqKey
          ? columns.map((c) => (c === '"seq"' ? `seq + ${seqShift(target, source)}` : c))
          : columns;
        db.prepare(
          `INSERT INTO ${target} (${columns.join(', ')}) SELECT ${select.join(', ')} FROM ${source}${table.order}`,
        ).run();
      }
    })();
  }

  /** 0 when none of the copy's `seq` keys is taken; else what moves them past every taken one. */
  function seqShift(target: string, source: string): number {
    const clash = db
      .prepare<[], number>(
        `SELECT EXISTS (SELECT 1 FROM ${source} s JOIN ${target} t ON t.seq = s.seq)`,
      )
      .pluck()
      .get();
    if (!clash) return 0;
    const top = db
      .prepare<[], number>(`SELECT coalesce(max(seq), 0) FROM ${target}`)
      .pluck()
      .get()!;
    const low = db.prepare<[], number>(`SELECT min(seq) FROM ${source}`).pluck().get()!;
    return top + 1 - low;
  }
}
export type SnapshotTables = ReturnType<typeof createSnapshotTables>;
