import type { Database } from 'better-sqlite3';

/**
 * Archives are no longer stored (issue 12 item 4: they made memory grow with every succeeded
 * run): each is rebuilt from its run when read and kept in a bounded in-memory cache
 * (store/archive-cache.ts, runtime/run-archive.ts), byte-identical to the one built at success,
 * so the rows of a file written before hold nothing that cannot be made again.
 */
export function migrate011(db: Database): void {
  db.exec('DROP TABLE archives');
}
