import { createUserAssetRepo } from '../../areas/scenarios/assets-store.js';
import { createScenarioRepo } from '../../areas/scenarios/store.js';
import { createSnapshotShelf } from '../../areas/snapshots/snapshots-store.js';
import { createWebhookEndpointRepo } from '../../areas/webhooks/endpoints-store.js';
import { type ArchiveCache, createArchiveCache } from '../../engine/store/archive-cache.js';
import { createEventRepo } from '../../engine/store/events.js';
import { createFileRepo } from '../../engine/store/files.js';
import { createRunLogRepo, createRunRepo } from '../../engine/store/runs.js';
import { createIdempotencyRepo } from '../../http/idempotency-store.js';
import { createAccountRepo } from '../accounts/accounts-store.js';
import { rememberedLookups } from '../accounts/credentials.js';
import { createKeyRepo } from '../accounts/keys-store.js';
import { Database } from './driver.js';
import { checkSchemaVersion, runMigrations } from './migrate.js';
import { createSequenceRepo } from './sequences.js';
import type { Database as SqliteDatabase } from './sqlite.js';

export interface StoreOptions {
  /** Bytes of built archives kept in memory (store/archive-cache.ts). Default 4 MiB. */
  archiveCacheBytes?: number;
  /** What a step of a run kind is called (`episode`), for the status messages events show. */
  stepNounOf?: (kind: string) => string | undefined;
}

/** The most an in-memory world holds: past it a write answers 500 saying to reset or use --db. */
const MEMORY_DB_BYTES = 1024 * 1024 * 1024;

/**
 * Opens the database (`:memory:` by default; a file runs in WAL mode and survives restarts),
 * migrates it and prepares every statement once.
 * @example const store = openStore(':memory:'); store.tx(() => store.accounts.list())
 */
export function openStore(path = ':memory:', options: StoreOptions = {}): Store {
  const db = new Database(path);
  checkSchemaVersion(db);
  if (path === ':memory:') {
    db.pragma('page_size = 8192');
    const pageBytes = db.pragma('page_size', { simple: true }) as number;
    db.pragma(`max_page_count = ${MEMORY_DB_BYTES / pageBytes}`);
  } else db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  runMigrations(db);
  return { db, ...repositories(db, options) };
}

export type Store = ReturnType<typeof repositories> & { db: SqliteDatabase };

/** Every repository of the store, over one database. */
function repositories(db: SqliteDatabase, options: StoreOptions) {
  const accounts = createAccountRepo(db);
  const keys = createKeyRepo(db);
  const runs = createRunRepo(db);
  const lookups = rememberedLookups(db, keys, accounts, runs);
  const archives = createArchiveCache(options.archiveCacheBytes);
  return {
    accounts,
    keys,
    /** The key with this bearer secret and its account, for authentication; remembered. */
    credentials: lookups.credentials,
    /** The earliest `next_at` of the account's runs, null if none; remembered. */
    earliestDue: lookups.earliestDue,
    runs,
    runLogs: createRunLogRepo(db),
    runFiles: createFileRepo(db),
    /** Built archives of succeeded runs, within a byte budget; runtime/engine/run-archive.ts reads them. */
    archives,
    scenarios: createScenarioRepo(db),
    userAssets: createUserAssetRepo(db),
    webhookEndpoints: createWebhookEndpointRepo(db),
    events: createEventRepo(db, options.stepNounOf ?? (() => undefined)),
    sequences: createSequenceRepo(db),
    idempotency: createIdempotencyRepo(db),
    /** Named world snapshots: copies of the tables, apart from the world (a reset keeps them). */
    snapshots: createSnapshotShelf(db),
    ...transactions(db),
    ...maintenance(db, archives),
  };
}

/** Synchronous transactions, and work that waits for the outermost one to commit. */
function transactions(db: SqliteDatabase) {
  // Work to run once the outermost transaction commits; dropped with what a rollback undoes.
  const afterCommit: Array<() => void> = [];
  return {
    /** Runs `fn` in one synchronous transaction. Never await inside it. */
    tx<T>(fn: () => T): T {
      const outermost = !db.inTransaction;
      const mark = afterCommit.length;
      let result: T;
      try {
        // better-sqlite3 nests a transaction inside an open one as a savepoint.
        result = db.transaction(fn)();
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
function maintenance(db: SqliteDatabase, archives: ArchiveCache) {
  return {
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
    },
    close(): void {
      db.close();
    },
  };
}
