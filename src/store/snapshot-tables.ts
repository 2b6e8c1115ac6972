/**
 * Copies of the world's tables for snapshots, kept in an attached in-memory database
 * (`snapshots`) and copied both ways by SQLite itself (`INSERT ... SELECT`): no row passes
 * through JavaScript on a save or a restore, which is what keeps a restore within milliseconds.
 */
import type { Database } from 'better-sqlite3';

/** Tables that mirror in-memory state for a `--db` file; a snapshot keeps that state itself. */
const MIRRORS: readonly string[] = ['journal', 'fault_rules'];

/** The AUTOINCREMENT counters: a whole world's copy keeps them so new rows number on alike. */
const COUNTERS = 'sqlite_sequence';

interface TableShape {
  name: string;
  columns: string[];
  /** Rows of one account: a WHERE clause on `@account` and `@prefix`, null if none are. */
  accountRows: string | null;
  /** Whether `seq` is the rowid: an account's rows may need new ones on their way back. */
  seqKey: boolean;
  /** How its rows are read in the order they were written: by rowid, else by primary key. */
  order: string;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Which of a table's rows belong to one account, from its columns. */
function accountRows(name: string, columns: string[]): string | null {
  if (name === 'accounts') return 'id = @account';
  if (columns.includes('account_id')) return 'account_id = @account';
  if (columns.includes('run_id'))
    return 'run_id IN (SELECT id FROM main.runs WHERE account_id = @account)';
  // Id counters are per `<scope>/<prefix>` stream; an account's scope is its id.
  if (name === 'sequences') return 'substr(stream, 1, length(@prefix)) = @prefix';
  return null;
}

/** The world's tables in creation order (parents before children), read once per store. */
function worldTables(db: Database): TableShape[] {
  const rows = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
    )
    .all()
    .filter((row) => !MIRRORS.includes(row.name));
  return rows.map(({ name, sql }) => {
    const info = db.pragma(`main.table_info(${quote(name)})`) as {
      name: string;
      type: string;
      pk: number;
    }[];
    const columns = info.map((c) => c.name);
    const keys = info.filter((c) => c.pk > 0);
    const seqKey = keys.length === 1 && keys[0]!.name === 'seq' && keys[0]!.type === 'INTEGER';
    const order = /WITHOUT ROWID/i.test(sql) ? '' : ' ORDER BY rowid';
    return { name, columns, accountRows: accountRows(name, columns), seqKey, order };
  });
}

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
export function createSnapshotTables(db: Database) {
  let tables: TableShape[] | undefined;
  const shapes = () => {
    if (tables) return tables;
    db.exec("ATTACH DATABASE ':memory:' AS snapshots");
    tables = worldTables(db);
    return tables;
  };
  /** The tables a copy of this scope holds, the counters last for a whole world. */
  const scoped = (account: string | null): { name: string; columns: string[] }[] => {
    const own = shapes().filter((t) => account === null || t.accountRows !== null);
    return account === null ? [...own, { name: COUNTERS, columns: ['name', 'seq'] }] : own;
  };
  const copyName = (tag: string, table: string) => `snapshots.${quote(`${tag}_${table}`)}`;
  const params = (account: string) => ({ account, prefix: `${account}/` });

  return {
    /** The tables and columns a copy of this scope holds, in order. */
    schema: scoped,
    /** Copies the world (or one account's rows) under `tag`; answers each table's row count. */
    save(tag: string, account: string | null): Record<string, number> {
      const counts: Record<string, number> = {};
      for (const table of shapes()) {
        if (account !== null && table.accountRows === null) continue;
        const where = account === null ? '' : ` WHERE ${table.accountRows}`;
        db.prepare(
          `CREATE TABLE ${copyName(tag, table.name)} AS SELECT * FROM main.${quote(table.name)}${where}${table.order}`,
        ).run(account === null ? {} : params(account));
        counts[table.name] = count(tag, table.name);
      }
      if (account === null)
        db.exec(`CREATE TABLE ${copyName(tag, COUNTERS)} AS SELECT * FROM main.${COUNTERS}`);
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
    /** Each table's columns and rows, BLOBs as Buffers (a download). */
    read(tag: string, account: string | null): Record<string, TableCopy> {
      const out: Record<string, TableCopy> = {};
      for (const { name } of scoped(account)) {
        const select = db.prepare(`SELECT * FROM ${copyName(tag, name)}`).raw();
        out[name] = {
          columns: select.columns().map((c) => c.name),
          rows: select.all() as unknown[][],
        };
      }
      return out;
    },
    /** Makes a copy under `tag` from rows read back (an upload); the caller checked their shape. */
    write(tag: string, data: Record<string, TableCopy>): void {
      for (const [name, { columns, rows }] of Object.entries(data)) {
        const target = copyName(tag, name);
        db.exec(`CREATE TABLE ${target} (${columns.map(quote).join(', ')})`);
        const insert = db.prepare(
          `INSERT INTO ${target} VALUES (${columns.map(() => '?').join(', ')})`,
        );
        for (const row of rows) insert.run(row);
      }
    },
    /** Drops the copy under `tag`. */
    drop(tag: string, account: string | null): void {
      for (const { name } of scoped(account))
        db.exec(`DROP TABLE IF EXISTS ${copyName(tag, name)}`);
    },
  };

  function count(tag: string, table: string): number {
    return db
      .prepare<[], number>(`SELECT count(*) FROM ${copyName(tag, table)}`)
      .pluck()
      .get()!;
  }

  function restoreWorld(tag: string): void {
    // The pragma is a no-op inside a transaction, so it brackets it (as store.clear() does).
    const outer = db.inTransaction;
    if (!outer) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        for (const { name } of [...shapes(), { name: COUNTERS }]) {
          db.prepare(`DELETE FROM main.${quote(name)}`).run();
          db.prepare(`INSERT INTO main.${quote(name)} SELECT * FROM ${copyName(tag, name)}`).run();
        }
      })();
    } finally {
      if (!outer) db.pragma('foreign_keys = ON');
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
          `INSERT INTO ${target} (${columns.join(', ')}) SELECT ${select.join(', ')} FROM ${source} ORDER BY rowid`,
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
