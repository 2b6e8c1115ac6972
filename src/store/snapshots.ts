/** Named world snapshots (DESIGN.md section 8): their tables' copies and what lives beside them. */

import type { SnapshotScope, SnapshotState } from '../contract/snapshot-file.js';
import { createSnapshotTables, type TableCopy } from './snapshot-tables.js';
import type { Database } from './sqlite.js';

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
  state: SnapshotState;
  /** Its tables' copies are under this tag (snapshot-tables.ts). */
  tag: string;
  /** The size of its file, once one was made. */
  bytes?: number;
}

/**
 * The snapshots of this process, by name, in memory (a `--db` file does not keep them); a name
 * saved again replaces the snapshot it named.
 * @example const shelf = createSnapshotShelf(db); shelf.get('base')
 */
export function createSnapshotShelf(db: Database) {
  const tables = createSnapshotTables(db);
  const byName = new Map<string, SavedSnapshot>();
  let tags = 0;
  const drop = (s: SavedSnapshot) => tables.drop(s.tag, s.account);
  return {
    tables,
    /** A fresh tag for a snapshot's tables. */
    nextTag: () => `s${++tags}`,
    get: (name: string) => byName.get(name),
    /** Oldest first. */
    list: (): SavedSnapshot[] => [...byName.values()],
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
    /** Each table's rows of a snapshot, for its file. */
    rows: (s: SavedSnapshot): Record<string, TableCopy> => tables.read(s.tag, s.account),
  };
}
export type SnapshotShelf = ReturnType<typeof createSnapshotShelf>;
