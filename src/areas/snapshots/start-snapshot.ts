/**
 * An emulator started from a snapshot file (`--snapshot FILE`): the file read with the seed it
 * brings, then shelved under its own name; a bad file throws naming the file.
 */

import { MESSAGES } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import {
  readSnapshotFile,
  SnapshotFileError,
  shelveSnapshotFile,
  snapshotSeed,
} from './snapshot-file.js';

/** The snapshot file read, with the seed to start with: its own, unless `seed` names another. */
export function startSnapshot(
  path: string,
  version: string,
  seed: string | undefined,
): { data: unknown; seed: string } {
  try {
    const data = readSnapshotFile(path);
    const own = snapshotSeed(data, version);
    if (seed !== undefined && seed !== own)
      throw new SnapshotFileError(MESSAGES.snapshotSeed(own, seed));
    return { data, seed: own };
  } catch (err) {
    if (err instanceof SnapshotFileError) throw new SnapshotFileError(`${path}: ${err.message}`);
    throw err;
  }
}

/** Shelves the start snapshot under its own name; a bad file throws naming the file. */
export function shelveStartSnapshot(deps: Deps, path: string, data: unknown) {
  try {
    return shelveSnapshotFile(deps, data);
  } catch (err) {
    if (err instanceof SnapshotFileError) throw new SnapshotFileError(`${path}: ${err.message}`);
    throw err;
  }
}
