import type { Database as SqliteDatabase } from 'better-sqlite3';
import { createAccountRepo } from './accounts.js';
import { createArchiveCache } from './archive-cache.js';
import { createCredentialCache } from './credentials.js';
import { Database } from './driver.js';
import { createDueCache } from './due-cache.js';
import { createEventRepo } from './events.js';
import { createFileRepo } from './files.js';
import { createIdempotencyRepo } from './idempotency.js';
import { createKeyRepo } from './keys.js';
import { runMigrations } from './migrate.js';
import { createRunLogRepo, createRunRepo } from './runs.js';
import { createScenarioRepo } from './scenarios.js';
import { createSequenceRepo } from './sequences.js';
import { createTransactor } from './transaction.js';
import { createUserAssetRepo } from './user-assets.js';
import { createWebhookEndpointRepo } from './webhook-endpoints.js';

export interface StoreOptions {
  /** Bytes of built archives kept in memory (store/archive-cache.ts). Default 4 MiB. */
  archiveCacheBytes?: number;
}

/**
 * Opens the database (`:memory:` by default; a file runs in WAL mode and survives restarts),
 * migrates it and prepares every statement once.
 * @example const store = openStore(':memory:'); store.tx(() => store.accounts.list())
 */
export function openStore(path = ':memory:', options: StoreOptions = {}): Store {
  const inMemory = path === ':memory:';
  const db = new Database(inMemory ? emptyImage() : path);
  // The image already holds every page: a small cache saves memory and scans less at commit.
  if (inMemory) db.pragma('cache_size = -2000');
  else db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  runMigrations(db);
  return { db, ...repositories(db, options) };
}

/**
 * The image of an empty database. `:memory:` opens it in SQLite's memdb VFS (what
 * `sqlite3_deserialize` uses): the pages live in one growable buffer (1 GiB at most) behind a
 * bounded page cache, rollback journal in memory. SQLite's own `:memory:` database keeps
 * every page in the page cache instead, and a commit after a B-tree balance that renumbered
 * pages (it parks one at the pending-byte page number) scans that cache's whole hash table:
 * about 30 µs a write at 40 MB of world, growing with it.
 *
 * Pages of 8 KiB (issue 12 item 4): a run's row is 1 to 2 KB, and a 4 KiB page holds one or two
 * of them with the rest unused (25% of the runs table after the bench's mixed load, 10% with 8
 * KiB). The world took 3.7 KB a run with 4 KiB pages and 3.3 KB with 8 KiB; a resume costs the
 * same (16 KiB pages saved no more and copy twice as much into the journal per page written).
 * Measured again once succeeded states were packed (rows of about 0.5 KB): 2.0 to 2.1 KB a run
 * with 8 KiB pages, 2.1 with 4 KiB.
 */
export const PAGE_BYTES = 8192;

function emptyImage(): Buffer {
  const empty = new Database(':memory:');
  try {
    // The size is taken when the first page is written: a table made and dropped writes it.
    empty.pragma(`page_size = ${PAGE_BYTES}`);
    empty.exec('CREATE TABLE page_size (x); DROP TABLE page_size; VACUUM');
    return empty.serialize();
  } finally {
    empty.close();
  }
}

export type Store = ReturnType<typeof repositories> & { db: SqliteDatabase };

function repositories(db: SqliteDatabase, options: StoreOptions) {
  const accounts = createAccountRepo(db);
  const due = createDueCache(db);
  const endpoints = createWebhookEndpointRepo(db);
  const events = createEventRepo(db);
  const keys = createKeyRepo(db);
  const credentials = createCredentialCache(
    db,
    (digest) => {
      const key = keys.findByDigest(digest);
      return key && { key, account: accounts.get(key.accountId) };
    },
    accounts.balance,
  );

  const archives = createArchiveCache(options.archiveCacheBytes);
  // Work to run once the outermost transaction commits; dropped with what a rollback undoes.
  const afterCommit: Array<() => void> = [];
  const transact = createTransactor(db);
  return {
    accounts,
    keys,
    /** The key with this secret digest and its account, for authentication; cached. */
    credentials: credentials.find,
    /** The SHA-256 digest of a bearer secret, as keys are stored; remembered. */
    digestOf: credentials.digestOf,
    /** The earliest `next_at` of the account's runs, null if none; cached. */
    earliestDue: due.earliest,
    runs: createRunRepo(db, due),
    runLogs: createRunLogRepo(db),
    runFiles: createFileRepo(db),
    /** Built archives of succeeded runs, within a byte budget; runtime/run-archive.ts reads them. */
    archives,
    scenarios: createScenarioRepo(db),
    userAssets: createUserAssetRepo(db),
    webhookEndpoints: endpoints,
    events,
    sequences: createSequenceRepo(db),
    idempotency: createIdempotencyRepo(db),
    /** Runs `fn` in one synchronous transaction. Never await inside it. */
    tx<T>(fn: () => T): T {
      const outermost = !db.inTransaction;
      const mark = afterCommit.length;
      let result: T;
      events.numbersBegin();
      try {
        result = transact(fn);
      } catch (err) {
        afterCommit.length = mark;
        due.rolledBack();
        endpoints.rolledBack();
        events.numbersEnd(false);
        throw err;
      }
      events.numbersEnd(true);
      if (!outermost) return result;
      due.committed();
      endpoints.committed();
      if (afterCommit.length > 0) for (const run of afterCommit.splice(0)) run();
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
    /** Deletes every row of every table (reset), keeping the schema. */
    clear(): void {
      archives.clear();
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
      // Written outside the runs and events repositories: their caches read the account again.
      due.forget(accountId);
      events.forgetNumbers(accountId);
    },
    close(): void {
      db.close();
    },
  };
}
