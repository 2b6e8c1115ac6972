/**
 * The part of better-sqlite3's API the store uses, declared here instead of imported from
 * `@types/better-sqlite3`, a development dependency: the published declarations then compile in a
 * user's `tsc --strict` without it (`skipLibCheck: false`). test/store/sqlite-types.test.ts checks
 * that better-sqlite3's own types satisfy these, so they cannot promise what it lacks.
 */

/** What `run()` reports. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared statement whose parameters are `P` and whose rows are `R`. */
export interface Statement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): RunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
  pluck(toggleState?: boolean): this;
  raw(toggleState?: boolean): this;
  /** The columns a SELECT answers, by name. */
  columns(): { name: string }[];
}

// biome-ignore lint/suspicious/noExplicitAny: better-sqlite3's own bound; a narrower one is not satisfied by its types
type AnyFunction = (...params: any[]) => unknown;
type ArgumentTypes<F extends AnyFunction> = F extends (...args: infer A) => unknown ? A : never;

/** `fn` run in one transaction (a savepoint inside an open one), with its parameters and result. */
export type Transaction<F extends AnyFunction> = (...params: ArgumentTypes<F>) => ReturnType<F>;

/** An open SQLite database. */
export interface Database {
  readonly name: string;
  readonly memory: boolean;
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare<P extends unknown[] | object = unknown[], R = unknown>(
    source: string,
  ): P extends unknown[] ? Statement<P, R> : Statement<[P], R>;
  transaction<F extends AnyFunction>(fn: F): Transaction<F>;
  exec(source: string): this;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  serialize(options?: { attached?: string }): Buffer;
  /** Registers `fn` as an SQL function of this connection, e.g. for a trigger to call. */
  function(
    name: string,
    options: { deterministic?: boolean; varargs?: boolean },
    fn: AnyFunction,
  ): this;
  close(): this;
}

export interface DatabaseOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  timeout?: number;
}

/** better-sqlite3's default export: `new Database(':memory:')`, a file name, or serialized bytes. */
export type DatabaseConstructor = new (
  filename?: string | Buffer,
  options?: DatabaseOptions,
) => Database;
