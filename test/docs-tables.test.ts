/**
 * The manual's tables stay complete: every route of the control API's served document is in the
 * route table of docs/control-api.md, every method of the harness's control client is in the
 * method table of docs/testing.md, and the catalog ids of docs/scenarios.md are those of
 * fixtures/catalog.json.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { builtinScenarios } from '../src/areas/scenarios/builtin.js';
import { type Catalog, CatalogSchema } from '../src/core/catalog.js';
import { createEmulator } from '../src/tools/emulator.js';
import { createControlClient } from '../src/tools/harness/index.js';

/** Path parameters compared by place, not name: `{id}` in prose is `{fault_id}` in the document. */
const shape = (route: string) => route.replace(/\{[^}]*\}/g, '{}');

/** The lines of the first Markdown table of `markdown` that follows `after`. */
function tableAfter(markdown: string, after: RegExp): string {
  const rest = markdown.slice(markdown.search(after));
  const lines = rest.split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start, end).join('\n');
}

test('every control route is in the route table of docs/control-api.md', async () => {
  const emulator = createEmulator({ seed: '0' });
  const doc = (await (await emulator.app.request('/_control/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  emulator.close();
  const table = tableAfter(readFileSync('docs/control-api.md', 'utf8'), /^\| Route /m);
  const listed = new Set(
    [...table.matchAll(/`(GET|POST|PUT|PATCH|DELETE) \/_control([^`]*)`/g)].map(
      (m) => `${m[1]} ${shape(m[2]!)}`,
    ),
  );
  const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${shape(path)}`),
  );
  expect(routes.length).toBeGreaterThan(20);
  expect(routes.filter((r) => !listed.has(r))).toEqual([]);
});

test('every method of the control client is in the method table of docs/testing.md, once', () => {
  const client = createControlClient('http://127.0.0.1:1');
  const table = tableAfter(readFileSync('docs/testing.md', 'utf8'), /^\| Methods /m);
  // The methods a row names, in its first cell: `listRequests(...)` or a bare `seedRun`.
  const named = table
    .split('\n')
    .slice(2)
    .flatMap((row) => [...row.split('|')[1]!.matchAll(/`(\w+)[(`]/g)].map((m) => m[1]!));
  const methods = Object.keys(client);
  expect(methods.length).toBeGreaterThan(20);
  expect(methods.filter((m) => !named.includes(m))).toEqual([]);
  // Each once: two rows with two signatures of one method cannot both be true.
  const twice = methods.filter((m) => named.indexOf(m) !== named.lastIndexOf(m));
  expect(twice).toEqual([]);
});

test('the catalog ids of docs/scenarios.md are those of fixtures/catalog.json, list by list', () => {
  const catalog = CatalogSchema.parse(JSON.parse(readFileSync('fixtures/catalog.json', 'utf8')));
  const table = tableAfter(readFileSync('docs/scenarios.md', 'utf8'), /^\| Catalog /m);
  const rows = new Map(
    table
      .split('\n')
      .slice(2)
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .map(([, name, ids]) => [
        name!.replace(/`/g, ''),
        [...ids!.matchAll(/`([^`]+)`/g)].map((m) => m[1]),
      ]),
  );
  const lists = Object.keys(catalog) as (keyof Catalog)[];
  const expected = new Map<string, string[]>(
    lists.map((list) => [
      list,
      (catalog[list] as unknown[]).map((e) =>
        typeof e === 'string' ? e : (e as { id: string }).id,
      ),
    ]),
  );
  expected.set(
    'built-in scenarios',
    builtinScenarios(catalog).map((s) => s.id),
  );
  expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(expected));
});
