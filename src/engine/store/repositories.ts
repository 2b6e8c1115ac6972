import { rememberedLookups } from '../../core/accounts/credentials.js';
import type { Database } from '../../core/sqlite/sqlite.js';
import type { CoreStore } from '../../core/sqlite/store.js';
import { createArchiveCache } from './archive-cache.js';
import { createEventRepo } from './events.js';
import { createFileRepo } from './files.js';
import { createRunLogRepo, createRunRepo } from './runs.js';

export interface StoreOptions {
  /** Bytes of built archives kept in memory (store/archive-cache.ts). Default 4 MiB. */
  archiveCacheBytes?: number;
  /** What a step of a run kind is called (`episode`), for the status messages events show. */
  stepNounOf?: (kind: string) => string | undefined;
}

/** The engine's repositories, part of every `Store`. */
export type EngineRepositories = ReturnType<typeof engineRepositories>;

declare module '../../core/sqlite/store.js' {
  interface Repositories extends EngineRepositories {}
}

/** The engine's repositories over the store's database: runs, their logs, files, archives, events. */
export function engineRepositories(db: Database, core: CoreStore, options: StoreOptions = {}) {
  const runs = createRunRepo(db);
  const lookups = rememberedLookups(db, core.keys, core.accounts, runs);
  return {
    /** The key with this bearer secret and its account, for authentication; remembered. */
    credentials: lookups.credentials,
    /** The earliest `next_at` of the account's runs, null if none; remembered. */
    earliestDue: lookups.earliestDue,
    runs,
    runLogs: createRunLogRepo(db),
    runFiles: createFileRepo(db),
    /** Built archives of succeeded runs, within a byte budget; engine/run-archive.ts reads them. */
    archives: createArchiveCache(options.archiveCacheBytes),
    events: createEventRepo(db, options.stepNounOf ?? (() => undefined)),
  };
}
