import type { Database } from '../core/sqlite/sqlite.js';
import { openDatabase, type Repositories, type Store } from '../core/sqlite/store.js';
import {
  type EngineRepositories,
  engineRepositories,
  type StoreOptions,
} from '../engine/store/repositories.js';
import { AREAS } from './index.js';

/** The areas' repositories: what each one's store modules add to `Repositories`. */
type AreaRepositories = Omit<Repositories, keyof EngineRepositories>;

/**
 * Opens the store: the database with the core's repositories (core/sqlite/store.ts), the
 * engine's, and those of every area in `AREAS`.
 * @example const store = openStore(':memory:'); store.tx(() => store.accounts.list())
 */
export function openStore(path = ':memory:', options: StoreOptions = {}): Store {
  return openDatabase(path, (db, core) => ({
    ...engineRepositories(db, core, options),
    ...areaRepositories(db),
  }));
}

/** Every area's repositories over one database; each area names its own in `Repositories`. */
function areaRepositories(db: Database): AreaRepositories {
  // Together they make what the areas' store modules declare (test/store/repositories.test.ts).
  return Object.assign({}, ...AREAS.map((area) => area.repositories?.(db))) as AreaRepositories;
}
