import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import {
  SCENARIO_FILE_MAX_BYTES,
  type ScenarioFile,
  scenarioSchema,
} from '../areas/scenarios/scenario-file.js';
import { FileRefused, readRegularFile } from '../core/bounded-read.js';
import type { Kinds } from '../engine/kind-registry.js';

/** A scenario or fixture file that cannot be used, with the file and the field at fault. */
export class DataFileError extends Error {
  constructor(
    readonly file: string,
    readonly field: string | null,
    detail: string,
  ) {
    super(`${file}${field ? ` (field ${field})` : ''}: ${detail}`);
  }
}

/**
 * Parses data against its schema; a failure names the file and the dotted field.
 * @example parseDataFile(CatalogSchema, json, 'fixtures/catalog.json')
 */
export function parseDataFile<T extends z.ZodType>(
  schema: T,
  data: unknown,
  file: string,
): z.infer<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys[0]) path.push(issue.keys[0]);
  throw new DataFileError(file, path.length ? path.join('.') : null, issue.message);
}

export function readJsonFile(path: string): unknown {
  return readDataFile(path);
}

/** The extensions a scenario file may have, in the order a name is looked up. */
const SCENARIO_EXTENSIONS = ['.json', '.yaml', '.yml'] as const;

/** A name (`default`, `my-world`) rather than a path (`./mine.yaml`, `/scenarios/a.json`). */
export function isScenarioName(value: string): boolean {
  return /^[a-z0-9][a-z0-9_-]*$/i.test(value);
}

/** The scenario names in these folders (`<name>.json`, `.yaml`, `.yml`), each once, sorted. */
export function listScenarios(dirs: string | readonly string[]): string[] {
  const names = new Set<string>();
  for (const dir of typeof dirs === 'string' ? [dirs] : dirs) {
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    for (const f of files) {
      const ext = SCENARIO_EXTENSIONS.find((e) => f.endsWith(e));
      if (ext && isScenarioName(f.slice(0, -ext.length))) names.add(f.slice(0, -ext.length));
    }
  }
  return [...names].sort();
}

/** The file a scenario name is read from: the first folder, then extension, that has it. */
export function scenarioFileOf(dirs: string | readonly string[], name: string): string | undefined {
  for (const dir of typeof dirs === 'string' ? [dirs] : dirs)
    for (const ext of SCENARIO_EXTENSIONS) {
      const file = join(dir, `${name}${ext}`);
      if (existsSync(file)) return file;
    }
  return undefined;
}

/** JSON or YAML text as data, by the file's extension; a syntax error names the file and line. */
function parseText(file: string, text: string): unknown {
  if (/\.ya?ml$/i.test(file)) {
    try {
      return parseYaml(text, { prettyErrors: true });
    } catch (err) {
      const detail = (err as Error).message.split('\n')[0];
      throw new DataFileError(file, null, `not valid YAML: ${detail}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new DataFileError(file, null, `not valid JSON: ${(err as Error).message}`);
  }
}

/** What a data file is called in the message naming its size limit. */
const A_DATA_FILE = 'a scenario file';

/** A data file's text (a regular file of at most 1 MiB), parsed by its extension. */
function readDataFile(file: string): unknown {
  let text: string;
  try {
    text = readRegularFile(file, SCENARIO_FILE_MAX_BYTES, A_DATA_FILE);
  } catch (err) {
    if (err instanceof FileRefused) throw new DataFileError(file, null, err.message);
    throw new DataFileError(file, null, `cannot read: ${(err as Error).message}`);
  }
  return parseText(file, text);
}

/** A scenario that names no file: a name found in none of the folders. */
export class ScenarioNotFound extends DataFileError {}

/**
 * A scenario by name (looked up in `dirs`, the first folder that has it wins) or by path (a JSON
 * or YAML file), read and parsed, with its path; `parseScenarioFile` validates it.
 * @example readScenarioFile(['./scenarios', PACKAGE_SCENARIOS], 'default')
 */
export function readScenarioFile(
  dirs: string | readonly string[],
  nameOrPath: string,
): { file: string; data: unknown } {
  if (!isScenarioName(nameOrPath)) {
    if (!SCENARIO_EXTENSIONS.some((e) => nameOrPath.toLowerCase().endsWith(e)))
      throw new DataFileError(
        nameOrPath,
        null,
        'a scenario is a name (letters, digits, - and _) or a path to a .json, .yaml or .yml file',
      );
    if (!existsSync(nameOrPath))
      throw new ScenarioNotFound(nameOrPath, null, 'cannot read: no such file');
    return { file: nameOrPath, data: readDataFile(nameOrPath) };
  }
  const file = scenarioFileOf(dirs, nameOrPath);
  if (file) return { file, data: readDataFile(file) };
  const folders = typeof dirs === 'string' ? [dirs] : dirs;
  throw new ScenarioNotFound(
    nameOrPath,
    null,
    `no scenario of that name in ${folders.join(' or ')} (<name>.json, .yaml or .yml)`,
  );
}

export function parseScenarioFile(
  raw: ReturnType<typeof readScenarioFile>,
  kinds: Kinds,
): ScenarioFile {
  return parseDataFile(scenarioSchema(kinds), raw.data, raw.file) as ScenarioFile;
}

/** A scenario by name or path, validated, with the file it came from. */
export function loadScenario(
  dirs: string | readonly string[],
  nameOrPath: string,
  kinds: Kinds,
): { file: string; scenario: ScenarioFile } {
  const raw = readScenarioFile(dirs, nameOrPath);
  return { file: raw.file, scenario: parseScenarioFile(raw, kinds) };
}

export function loadScenarioFile(
  dirs: string | readonly string[],
  nameOrPath: string,
  kinds: Kinds,
): ScenarioFile {
  return loadScenario(dirs, nameOrPath, kinds).scenario;
}
