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
    prepare: ((source: string) => new StatementOnFirstUse(db, source)) as Database['prepare'],
    transaction: (fn) => db.transaction(fn),
    exec(source) {
      db.exec(source);
      return view;
    },
    pragma: (source, options) => db.pragma(source, options),
    serialize: (options) => db.serialize(options),
    function(name, options, fn) {
      db.function(name, options, fn);
      return view;
    },
    close() {
      db.close();
      return view;
    },
  };
  return view;
}

/**
 * `source` as a statement compiled when it is first run (or its columns read). A class: the store
 * makes ninety of these, and its methods are then shared rather than closures made for each.
 */
class StatementOnFirstUse implements Statement {
  private compiled: Statement | undefined;
  // pluck() and raw() before the first use, replayed on the compiled statement.
  private readonly modes: ((statement: Statement) => void)[] = [];

  constructor(
    private readonly db: Database,
    private readonly source: string,
  ) {}

  private statement(): Statement {
    if (!this.compiled) {
      this.compiled = this.db.prepare(this.source);
      for (const mode of this.modes) mode(this.compiled);
    }
    return this.compiled;
  }

  run(...params: unknown[]) {
    return this.statement().run(...params);
  }
  get(...params: unknown[]) {
    return this.statement().get(...params);
  }
  all(...params: unknown[]) {
    return this.statement().all(...params);
  }
  iterate(...params: unknown[]) {
    return this.statement().iterate(...params);
  }
  columns() {
    return this.statement().columns();
  }
  // Passed on as given: better-sqlite3 takes no argument as `true`, but refuses `undefined`.
  pluck(...toggle: [boolean?]): this {
    if (this.compiled) this.compiled.pluck(...toggle);
    else this.modes.push((s) => s.pluck(...toggle));
    return this;
  }
  raw(...toggle: [boolean?]): this {
    if (this.compiled) this.compiled.raw(...toggle);
    else this.modes.push((s) => s.raw(...toggle));
    return this;
  }
}
