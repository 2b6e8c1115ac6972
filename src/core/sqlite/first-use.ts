import type { Database, Statement } from './sqlite.js';

/**
 * The database as the store hands it out: every member is the database's own, but `prepare`
 * answers a statement that SQLite compiles on its first use. The repositories prepare their ninety
 * statements as the store opens (STYLE.md rule 7: once per store); compiling them all took about
 * a third of a new emulator's time, and most emulators (a test's, a short session's) run few of them.
 * @example const db = preparedOnFirstUse(new Driver(':memory:')); const count = db.prepare('SELECT 1')
 */
export function preparedOnFirstUse(db: Database): Database {
  const view: Database = {
    get name() {
      return db.name;
    },
    get memory() {
      return db.memory;
    },
    get open() {
      return db.open;
    },
    get inTransaction() {
      return db.inTransaction;
    },
    prepare: ((source: string) => statementOnFirstUse(db, source)) as Database['prepare'],
    transaction: (fn) => db.transaction(fn),
    exec(source) {
      db.exec(source);
      return view;
    },
    pragma: (source, options) => db.pragma(source, options),
    serialize: (options) => db.serialize(options),
    close() {
      db.close();
      return view;
    },
  };
  return view;
}

/** `source` as a statement compiled when it is first run (or its columns read). */
function statementOnFirstUse(db: Database, source: string): Statement {
  let compiled: Statement | undefined;
  // pluck() and raw() before the first use, replayed on the compiled statement.
  const modes: ((statement: Statement) => void)[] = [];
  const statement = (): Statement => {
    if (!compiled) {
      compiled = db.prepare(source);
      for (const mode of modes) mode(compiled);
    }
    return compiled;
  };
  const lazy: Statement = {
    run: (...params) => statement().run(...params),
    get: (...params) => statement().get(...params),
    all: (...params) => statement().all(...params),
    iterate: (...params) => statement().iterate(...params),
    columns: () => statement().columns(),
    // Passed on as given: better-sqlite3 takes no argument as `true`, but refuses `undefined`.
    pluck(...toggle) {
      if (compiled) compiled.pluck(...toggle);
      else modes.push((s) => s.pluck(...toggle));
      return lazy;
    },
    raw(...toggle) {
      if (compiled) compiled.raw(...toggle);
      else modes.push((s) => s.raw(...toggle));
      return lazy;
    },
  };
  return lazy;
}
