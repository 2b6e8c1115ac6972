import type { ScenarioFile } from './areas/scenarios/scenario-file.js';
import type { ProductEmulator } from './emulator.js';
import { liveFixedKey, liveFixedKeys } from './world/live-fixed-keys.js';
import {
  DataFileError,
  listScenarios,
  parseScenarioFile,
  readScenarioFile,
} from './world/load-scenario.js';

/**
 * The start-up banner: where to reach the emulator and the keys that work. Keys come from the store
 * (a `--db` world may predate the scenario); any scenario file's fixed secrets may open one.
 */
export function banner(
  emulator: ProductEmulator,
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
      `  inspector  ${url}/_control/ui`,
    );
  const scenario = emulator.startedFrom
    ? `${deps.scenarios.loaded.name}, then snapshot ${emulator.startedFrom}`
    : emulator.scenarioApplied
      ? options.scenario
      : `${options.scenario} (not applied: the world in ${options.db} was kept)`;
  lines.push(
    `  scenario   ${scenario}   seed ${options.seed}   clock ${clockLine(emulator, options.clock)}`,
  );
  // The default scenario's first fixed secret is `svc_test_emulator_default`.
  for (const key of liveFixedKeys(deps, [deps.scenarios.loaded, ...otherScenarios(emulator)]))
    lines.push(`  key        Bearer ${key.secret}   (${key.accountName})`);
  return lines.join('\n');
}

/**
 * The clock modes of the world: `--clock` gives new accounts theirs, while a scenario's `clock.mode`
 * or an account's own `clock` (or a kept `--db` world) may have set others.
 * @example clockLine(emulator, 'realtime') // 'manual (the accounts of the world); realtime for new ones'
 */
function clockLine(emulator: ProductEmulator, mode: string): string {
  const modes = [...new Set(emulator.deps.store.accounts.list().map((a) => a.clockMode))];
  if (modes.every((m) => m === mode)) return mode;
  return `${modes.join(', ')} (the accounts of the world); ${mode} for new ones`;
}

/**
 * The other scenario files whose secrets may add a key line, unvalidated: a start stays quick.
 * Read only when the world was not just built from the loaded scenario (a kept `--db` world, a
 * snapshot), whose keys another file may have made; each as a regular file of at most 1 MiB.
 */
function otherScenarios(emulator: ProductEmulator): ScenarioFile[] {
  if (emulator.scenarioApplied && emulator.startedFrom === null) return [];
  const { deps } = emulator;
  const { dirs, loaded } = deps.scenarios;
  const named = new Set(rawSecrets(loaded));
  const files: ScenarioFile[] = [];
  for (const name of listScenarios(dirs)) {
    try {
      const raw = readScenarioFile(dirs, name);
      const secrets = rawSecrets(raw.data);
      if (!secrets.some((secret) => !named.has(secret) && liveFixedKey(deps, secret))) continue;
      const file = parseScenarioFile(raw, deps.kinds);
      if (file.name === loaded.name) continue;
      files.push(file);
      for (const secret of secrets) named.add(secret);
    } catch (err) {
      if (!(err instanceof DataFileError)) throw err;
    }
  }
  return files;
}

/** The `accounts[].keys[].secret` strings of a scenario file's JSON, before it is validated. */
function rawSecrets(data: unknown): string[] {
  const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const field = (value: unknown, name: string): unknown =>
    typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)[name]
      : undefined;
  return items(field(data, 'accounts')).flatMap((account) =>
    items(field(account, 'keys')).flatMap((key) => {
      const secret = field(key, 'secret');
      return typeof secret === 'string' ? [secret] : [];
    }),
  );
}
