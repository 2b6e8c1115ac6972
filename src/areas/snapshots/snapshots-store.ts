/** Named world snapshots (DESIGN.md section 8): their tables' copies and what lives beside them. */

import type { Database } from '../../core/sqlite/sqlite.js';
import type { HeldState, SnapshotScope } from './snapshot-file-contract.js';
import { createSnapshotTables } from './snapshot-tables.js';

export interface SavedSnapshot {
  name: string;
  /** When it was saved (wall time, ISO 8601). */
  createdAt: string;
  scope: SnapshotScope;
  /** The account of an account's snapshot; null for the whole world. */
  account: string | null;
  /** The seed of the emulator that saved it: ids and secrets follow from it. */
  seed: string;
  /** Rows per table. */
  counts: Record<string, number>;
  /** What it keeps beside its tables; its journal is with them (snapshot-tables.ts). */
  state: HeldState;
  /** Its tables' copies are under this tag (snapshot-tables.ts). */
  tag: string;
  /** The bytes its copies take in the snapshots' database. */
  storedBytes: number;
  /** The size of its file, once a download made one. */
  bytes?: number;
}

/**
 * The snapshots of this process, by name (a `--db` file does not keep them); a name saved again
 * replaces the snapshot it named. A snapshot being downloaded keeps its copies until the last
 * download of it ends, even if it is deleted or replaced meanwhile.
 * @example const shelf = createSnapshotShelf(db); shelf.get('base')
 */
export function createSnapshotShelf(db: Database) {
  const tables = createSnapshotTables(db);
  const byName = new Map<string, SavedSnapshot>();
  /** Downloads under way per tag, and the tags dropped meanwhile, to drop when they end. */
  const readers = new Map<string, number>();
  const dropLater = new Map<string, SavedSnapshot>();
  let tags = 0;
  const drop = (s: SavedSnapshot) => {
    if (readers.has(s.tag)) dropLater.set(s.tag, s);
    else tables.drop(s.tag, s.account);
  };
  return {
    tables,
    /** A fresh tag for a snapshot's tables. */
    nextTag: () => `s${++tags}`,
    get: (name: string) => byName.get(name),
    /** Oldest first. */
    list: (): SavedSnapshot[] => [...byName.values()],
    /** How many snapshots there are. */
    count: () => byName.size,
    /** Shelves `snapshot`, dropping the copy of one it replaces. */
    put(snapshot: SavedSnapshot): void {
      const replaced = byName.get(snapshot.name);
      byName.delete(snapshot.name);
      byName.set(snapshot.name, snapshot);
      if (replaced) drop(replaced);
    },
    /** Removes and drops the named snapshot; false if there is none. */
    remove(name: string): boolean {
      const found = byName.get(name);
      if (!found) return false;
      byName.delete(name);
      drop(found);
      return true;
    },
    /** Keeps a snapshot's copies while it is read (a download), until `release`. */
    hold(s: SavedSnapshot): void {
      readers.set(s.tag, (readers.get(s.tag) ?? 0) + 1);
    },
    /** Ends a `hold`; the copies of a snapshot dropped meanwhile go with the last one. */
    release(s: SavedSnapshot): void {
      const left = (readers.get(s.tag) ?? 1) - 1;
      if (left > 0) return void readers.set(s.tag, left);
      readers.delete(s.tag);
      const dropped = dropLater.get(s.tag);
      dropLater.delete(s.tag);
      if (dropped) tables.drop(dropped.tag, dropped.account);
    },
  };
}
export type SnapshotShelf = ReturnType<typeof createSnapshotShelf>;

declare module '../../core/sqlite/store.js' {
  interface Repositories {
    /** Named world snapshots: copies of the tables, apart from the world (a reset keeps them). */
    snapshots: SnapshotShelf;
  }
}
