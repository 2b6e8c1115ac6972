/**
 * How many snapshots, and how many bytes of copies, the shelf takes (issue 36): past either, a
 * save or an upload answers 400 naming the limit, before it copies anything when that can be
 * known (a new name past the count, no space left, a whole world larger than the space left),
 * else once its copy is made, which the save's transaction then takes back.
 */
import { invalidParam, MESSAGES } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';

/** Before a copy of `name` (a whole world's if `world`): 400 if it cannot fit. */
export function checkRoomBefore(deps: Deps, name: string, world: boolean): void {
  const { snapshotLimit, snapshotSpaceBytes } = deps.config;
  const shelf = deps.store.snapshots;
  if (!shelf.get(name) && shelf.count() >= snapshotLimit)
    throw invalidParam('name', MESSAGES.snapshotCount(snapshotLimit));
  const used = shelf.tables.storedBytes();
  const needs = world ? shelf.tables.worldBytes() : 0;
  if (used >= snapshotSpaceBytes || used + needs > snapshotSpaceBytes)
    throw invalidParam('name', MESSAGES.snapshotSpace(used, needs, snapshotSpaceBytes));
}

/** Once a copy of `stored` bytes is made, in its transaction: 400 if the copies now take too much. */
export function checkRoomAfter(deps: Deps, stored: number): void {
  const { snapshotSpaceBytes } = deps.config;
  const used = deps.store.snapshots.tables.storedBytes();
  if (used > snapshotSpaceBytes)
    throw invalidParam('name', MESSAGES.snapshotSpace(used - stored, stored, snapshotSpaceBytes));
}
