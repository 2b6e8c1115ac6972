/** What a snapshot copies of each world table: its columns, its account's rows, its schema. */
import type { Database } from '../../core/sqlite/sqlite.js';

/** Tables that mirror in-memory state for a `--db` file; a snapshot keeps that state itself. */
const MIRRORS: readonly string[] = ['journal', 'fault_rules'];

export interface TableShape {
  name: string;
  columns: string[];
  /** Rows of one account: a WHERE clause on `@account` and `@prefix`, null if none are. */
  accountRows: string | null;
  /** Whether `seq` is the rowid: an account's rows may need new ones on their way back. */
  seqKey: boolean;
  /** How its rows are read in the order they were written: by rowid, else by primary key. */
  order: string;
  /** The columns that order its rows: `rowid`, or a WITHOUT ROWID table's primary key. */
  key: string[];
  /** Creates its copy (the same columns, constraints and indexes) as `<schema>.<tag>_<name>`. */
  copySchema(tag: string, schema?: string): string;
}

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The copy of `table` under `tag`, in an attached database: `snapshots` (the shelf's), or a
 * recording's own (areas/bundles), whose copies the shelf's limits do not count.
 */
export const copyName = (tag: string, table: string, schema = 'snapshots') =>
  `${schema}.${quote(`${tag}_${table}`)}`;

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

const FOREIGN_KEY = /\s+REFERENCES\s+\w+\s*\([^)]*\)(\s+ON\s+(DELETE|UPDATE)\s+\w+(\s+\w+)?)*/gi;

/**
 * A table's and its indexes' `CREATE` statements renamed into the copy. The copy matches the
 * table column for column and index for index, so SQLite moves rows between the two as stored
 * records (its INSERT ... SELECT transfer optimization) instead of row by row; it has no foreign
 * keys, as it has no parents beside it.
 */
function copySchema(table: string, sql: string, indexes: { name: string; sql: string }[]) {
  return (tag: string, schema = 'snapshots') =>
    [
      sql
        .replace(/^CREATE TABLE \w+/, `CREATE TABLE ${copyName(tag, table, schema)}`)
        .replace(FOREIGN_KEY, ''),
      ...indexes.map((i) =>
        i.sql.replace(
          /^CREATE (UNIQUE )?INDEX \w+ ON \w+/,
          `CREATE $1INDEX ${copyName(tag, i.name, schema)} ON ${quote(`${tag}_${table}`)}`,
        ),
      ),
    ].join(';\n');
}

/** The world's tables in creation order (parents before children), read once per store. */
export function worldTables(db: Database): TableShape[] {
  const objects = db
    .prepare<[], { type: string; name: string; tbl_name: string; sql: string }>(
      `SELECT type, name, tbl_name, sql FROM main.sqlite_master
        WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`,
    )
    .all()
    .filter((o) => !MIRRORS.includes(o.tbl_name));
  return objects
    .filter((o) => o.type === 'table')
    .map(({ name, sql }) => {
      const info = db.pragma(`main.table_info(${quote(name)})`) as {
        name: string;
        type: string;
        pk: number;
      }[];
      const columns = info.map((c) => c.name);
      const keys = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      const withoutRowid = /WITHOUT ROWID/i.test(sql);
      const indexes = objects.filter((o) => o.type === 'index' && o.tbl_name === name);
      return {
        name,
        columns,
        accountRows: accountRows(name, columns),
        seqKey: keys.length === 1 && keys[0]!.name === 'seq' && keys[0]!.type === 'INTEGER',
        order: withoutRowid ? '' : ' ORDER BY rowid',
        key: withoutRowid ? keys.map((c) => quote(c.name)) : ['rowid'],
        copySchema: copySchema(name, sql, indexes),
      };
    });
}
