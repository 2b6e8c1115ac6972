import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { type ScenarioFile, scenarioFileSchema } from '../contract/scenario-file.js';
import { type Kinds, scopesOf } from '../domain/kind-registry.js';

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
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new DataFileError(path, null, `cannot read: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new DataFileError(path, null, `not valid JSON: ${(err as Error).message}`);
  }
}

/** The names of the scenarios in a directory (`<name>.json`), sorted. */
export function listScenarios(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** Reads `<dir>/<name>.json` as JSON, and its path; `parseScenarioFile` validates it. */
export function readScenarioFile(dir: string, name: string): { file: string; data: unknown } {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(name)) {
    throw new DataFileError(name, null, 'a scenario name is letters, digits, - and _');
  }
  const file = join(dir, `${name}.json`);
  return { file, data: readJsonFile(file) };
}

/** The scenario file's schema for these kinds: their scopes, names and seeding inputs. */
export function scenarioSchema(kinds: Kinds) {
  return scenarioFileSchema({
    scopes: scopesOf(kinds),
    kindNames: kinds.list.map(({ kind }) => kind.name),
    seeds: kinds.list.flatMap(({ kind, seed }) =>
      seed ? [{ collection: kind.collection, input: seed.input }] : [],
    ),
  });
}

export function parseScenarioFile(
  raw: ReturnType<typeof readScenarioFile>,
  kinds: Kinds,
): ScenarioFile {
  return parseDataFile(scenarioSchema(kinds), raw.data, raw.file) as ScenarioFile;
}

export function loadScenarioFile(dir: string, name: string, kinds: Kinds): ScenarioFile {
  return parseScenarioFile(readScenarioFile(dir, name), kinds);
}
