import type { Database } from './sqlite.js';

/**
 * A test of whether another connection has committed to the database file since the test last
 * ran (`PRAGMA data_version`): what an in-process cache of rows forgets itself by, its own writes
 * being told by triggers. Never for an in-memory database, which no other connection reaches.
 * @example const elsewhere = writtenElsewhere(db); if (elsewhere()) cache.clear();
 */
export function writtenElsewhere(db: Database): () => boolean {
  if (db.memory) return () => false;
  const version = db.prepare<[], number>('PRAGMA data_version').pluck();
  let seen = -1;
  return () => {
    const now = version.get() ?? 0;
    if (now === seen) return false;
    seen = now;
    return true;
  };
}
