import { createAccountRepo } from '../accounts/accounts-store.js';
import { createKeyRepo } from '../accounts/keys-store.js';
import { createIdempotencyRepo } from '../idempotency-store.js';
import { Database } from './driver.js';
import { preparedOnFirstUse } from './first-use.js';
import { checkSchemaVersion, runMigrations } from './migrate.js';
import { createSequenceRepo } from './sequences.js';
import type { Database as SqliteDatabase } from './sqlite.js';

/**
 * The repositories of the layers above, over the same database: each layer names its own here
 * (module augmentation: engine/store/repositories.ts, and each area's store module), and
 * areas/store.ts composes them all.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the layers above (declaration merging).
export interface Repositories {}

/** What the core keeps in the database itself: accounts, keys, sequences, idempotency records. */
export type CoreStore = ReturnType<typeof coreRepositories> & { db: SqliteDatabase };

/** The whole store: the core's repositories and those of the layers above. */
export type Store = CoreStore & Repositories;

/** The most an in-memory world holds: past it a write answers 500 saying to reset or use --db. */
const MEMORY_DB_BYTES = 1024 * 1024 * 1024;

/**
 * Opens the database (`:memory:` by default; a file runs in WAL mode and survives restarts),
 * migrates it, prepares the core's statements once (each compiled on its first use: first-use.ts)
 * and adds the repositories `above` makes over it (areas/store.ts passes every layer's).
 * @example const store = openDatabase(':memory:', (db, core) => aboveRepositories(db, core))
 */
export function openDatabase(
  path: string,
  above: (db: SqliteDatabase, core: CoreStore) => Repositories,
): Store {
  const opened = new Database(path);
  checkSchemaVersion(opened);
  if (path === ':memory:') {
    // 16 KiB pages: a resume over 100,000 runs took 15% less CPU than with 8 KiB, and 40,000 runs
    // less memory (docs/development.md, the speed table's row for this file).
    opened.pragma('page_size = 16384');
    const pageBytes = opened.pragma('page_size', { simple: true }) as number;
    opened.pragma(`max_page_count = ${MEMORY_DB_BYTES / pageBytes}`);
  } else opened.pragma('journal_mode = WAL');
  opened.pragma('foreign_keys = ON');
  opened.pragma('synchronous = NORMAL');
  runMigrations(opened);
  const db = preparedOnFirstUse(opened);
  const core: CoreStore = { db, ...coreRepositories(db) };
  return { ...core, ...above(db, core) };
}

/** The core's repositories over one database, its transactions and its upkeep. */
function coreRepositories(db: SqliteDatabase) {
  return {
    accounts: createAccountRepo(db),
    keys: createKeyRepo(db),
    sequences: createSequenceRepo(db),
    idempotency: createIdempotencyRepo(db),
    ...transactions(db),
    ...maintenance(db),
  };
}

/** Synchronous transactions, and work that waits for the outermost one to commit. */
function transactions(db: SqliteDatabase) {
  // Work to run once the outermost transaction commits; dropped with what a rollback undoes.
  const afterCommit: Array<() => void> = [];
  // One transaction function, made once: better-sqlite3 builds four wrappers for each
  // `db.transaction()`, and a transaction per write paid for them every time.
  const inTransaction = db.transaction((fn: () => unknown) => fn());
  return {
    /** Runs `fn` in one synchronous transaction. Never await inside it. */
    tx<T>(fn: () => T): T {
      const outermost = !db.inTransaction;
      const mark = afterCommit.length;
      let result!: T;
      try {
        // better-sqlite3 nests a transaction inside an open one as a savepoint, and refuses a
        // function that answers a promise: the result goes through it.
        inTransaction(() => (result = fn()));
      } catch (err) {
        afterCommit.length = mark;
        throw err;
      }
      if (outermost) for (const run of afterCommit.splice(0)) run();
      return result;
    },
    /**
     * Runs `fn` once the current `tx` commits (at once outside one); a rollback drops it.
     * @example store.onCommit(() => dispatcher.enqueue(deliveries))
     */
    onCommit(fn: () => void): void {
      if (db.inTransaction) afterCommit.push(fn);
      else fn();
    },
  };
}

/** Emptying the store, all of it or one account's resources, and closing it. */
function maintenance(db: SqliteDatabase) {
  return {
    /** Deletes every row of every table (reset), keeping the schema; caches are their owners' to forget. */
    clear(): void {
      const tables = db
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
        .all();
      // The pragma is a no-op inside a transaction, so it brackets the transaction.
      db.pragma('foreign_keys = OFF');
      db.transaction(() => {
        for (const { name } of tables) db.exec(`DELETE FROM ${name}`);
      })();
      db.pragma('foreign_keys = ON');
    },
    /** Deletes what an account owns (runs, scenarios, assets, endpoints, events), keeping it and its keys. */
    clearAccountResources(accountId: string): void {
      db.transaction(() => {
        for (const table of [
          'runs',
          'scenarios',
          'user_assets',
          'webhook_endpoints',
          'idempotency_records',
          'events',
        ]) {
          db.prepare(`DELETE FROM ${table} WHERE account_id = ?`).run(accountId);
        }
      })();
    },
    close(): void {
      db.close();
    },
  };
}
