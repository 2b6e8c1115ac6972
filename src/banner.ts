import type { ScenarioFile } from './contract/scenario-file.js';
import type { Emulator } from './emulator.js';
import { liveFixedKeys } from './world/live-fixed-keys.js';
import { DataFileError, listScenarios, loadScenarioFile } from './world/load-scenario.js';

/**
 * The start-up banner: where to reach the emulator and the keys that work. Keys come from the
 * store, not from the scenario: with a `--db` file that already held a world the scenario was
 * not applied, and its keys may not exist. Any scenario file may have built that world, so the
 * fixed secrets of every file in the scenarios directory are candidates.
 */
export function banner(
  emulator: Emulator,
  url: string,
  options: { scenario: string; seed: string; clock: string; db: string },
): string {
  const { deps } = emulator;
  const lines = [
    `svc-emulator ${deps.config.version} listening on ${url}`,
    `  API        ${url}/v1   (OpenAPI: ${url}/openapi.json)`,
    `  docs       ${url}/docs`,
  ];
  if (deps.config.control)
    lines.push(
      `  control    ${url}/_control   (OpenAPI: ${url}/_control/openapi.json, docs: ${url}/_control/docs)`,
    );
  const scenario = emulator.scenarioApplied
    ? options.scenario
    : `${options.scenario} (not applied: the world in ${options.db} was kept)`;
  lines.push(`  scenario   ${scenario}   seed ${options.seed}   clock ${options.clock}`);
  // The default scenario's first fixed secret is `svc_test_emulator_default`.
  for (const key of liveFixedKeys(deps, [deps.scenarios.loaded, ...otherScenarios(emulator)]))
    lines.push(`  key        Bearer ${key.secret}   (${key.accountName})`);
  return lines.join('\n');
}

/** The scenario files besides the loaded one, skipping any that cannot be read. */
function otherScenarios(emulator: Emulator): ScenarioFile[] {
  const { dir, loaded } = emulator.deps.scenarios;
  const files: ScenarioFile[] = [];
  for (const name of listScenarios(dir)) {
    try {
      const file = loadScenarioFile(dir, name);
      if (file.name !== loaded.name) files.push(file);
    } catch (err) {
      if (!(err instanceof DataFileError)) throw err;
    }
  }
  return files;
}
