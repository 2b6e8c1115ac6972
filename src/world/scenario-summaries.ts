/**
 * What `GET /_control/scenarios` shows of each scenario file: its description, or why it cannot be
 * loaded. A file that is not a regular one, or is over the size limit, is named without being
 * read; the others are read and checked once per change (their size, time and inode), one at a
 * time with other requests served between them (issue 36).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SCENARIO_FILE_MAX_BYTES } from '../areas/scenarios/scenario-file.js';
import { regularFileStats } from '../core/bounded-read.js';
import type { Deps } from '../engine/deps.js';
import {
  DataFileError,
  listScenarios,
  parseScenarioFile,
  readScenarioFile,
  scenarioFileOf,
} from './load-scenario.js';

export interface ScenarioSummary {
  name: string;
  description: string | null;
  error: string | null;
}

/**
 * Every scenario name of the folders, each once, sorted, with its description or its error.
 * @example const data = await scenarioSummaries(deps)
 */
export async function scenarioSummaries(deps: Deps): Promise<ScenarioSummary[]> {
  const { dirs, summaries } = deps.scenarios;
  const seen = new Set<string>();
  const out: ScenarioSummary[] = [];
  for (const name of listScenarios(dirs)) {
    const file = scenarioFileOf(dirs, name);
    if (file === undefined) continue; // gone since the folder was read
    seen.add(file);
    let stamp: string;
    try {
      const stats = regularFileStats(file, SCENARIO_FILE_MAX_BYTES, 'a scenario file');
      stamp = `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
    } catch (err) {
      summaries.delete(file);
      out.push({ name, description: null, error: `${file}: ${(err as Error).message}` });
      continue;
    }
    let known = summaries.get(file);
    if (known?.stamp !== stamp) {
      known = { stamp, ...summaryOf(deps, dirs, name) };
      summaries.set(file, known);
      // One file read and checked per turn of the event loop: other calls are served between.
      await nextTurn();
    }
    out.push({ name, description: known.description, error: known.error });
  }
  for (const file of summaries.keys()) if (!seen.has(file)) summaries.delete(file);
  return out;
}

function summaryOf(deps: Deps, dirs: readonly string[], name: string) {
  try {
    const file = parseScenarioFile(readScenarioFile(dirs, name), deps.kinds);
    return { description: file.description ?? null, error: null };
  } catch (err) {
    // A broken file of the user's folder is listed with what is wrong, not hidden.
    if (!(err instanceof DataFileError)) throw err;
    return { description: null, error: err.message };
  }
}
