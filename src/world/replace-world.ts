/**
 * The whole world replaced by a scenario, or left exactly as it was: a scenario that passes its
 * file's schema can still fail while applied (a run naming a dataset the catalog lacks), and then
 * nothing of it stays.
 */

import type { ScenarioFile } from '../areas/scenarios/scenario-file.js';
import { restoreSnapshot, saveSnapshot, worldAtRest } from '../areas/snapshots/snapshots.js';
import { ApiError } from '../core/errors.js';
import type { Deps } from '../engine/deps.js';
import { resetWorld } from './reset.js';

/** The shelf name of the world as it stood before a load; no snapshot name can take it. */
const BEFORE_LOAD = ' before scenario load';

/**
 * Resets the world to `scenario`; if applying it fails, restores the world and throws the error,
 * its message prefixed with `source` (the file or "the inline scenario") and the field at fault.
 * @example await replaceWorld(deps, scenario, 'scenarios/mine.yaml')
 */
export async function replaceWorld(
  deps: Deps,
  scenario: ScenarioFile,
  source: string,
): Promise<void> {
  await worldAtRest(deps);
  const before = saveSnapshot(deps, BEFORE_LOAD, null);
  try {
    resetWorld(deps, { scenario });
  } catch (err) {
    restoreSnapshot(deps, before);
    if (err instanceof ApiError) {
      const field = err.param ? ` (field ${err.param})` : '';
      throw ApiError.of(err.code, { ...err, message: `${source}${field}: ${err.message}` });
    }
    throw err;
  } finally {
    deps.store.snapshots.remove(BEFORE_LOAD);
  }
}
