import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { expect, test } from 'vitest';

/**
 * DESIGN.md section 2's direction of imports, as data: a file may import files of its own
 * layer or of a layer below, never above. Bottom first. A folder entry ends with `/`.
 */
const LAYERS: readonly (readonly string[])[] = [
  // What every area uses, knowing none of them: errors, ids, clocks, sqlite, the accounts' ground.
  ['src/core/'],
  // The run engine: one object that owns the runs, their timelines, events and archives.
  ['src/engine/'],
  // Run kinds: data and pure functions on the engine (DESIGN.md section 7).
  ['src/kinds/'],
  // Every other area, a folder each (src/areas/index.ts lists them).
  ['src/areas/'],
  // Loading, applying and resetting a world (scenario files, snapshots' restore).
  ['src/world/'],
  // The request pipeline, both apps and their documents, the Node server.
  ['src/http/'],
  // A settle worker thread's entry (beside emulator.ts, which starts it) imports the kinds.
  ['src/emulator.ts', 'src/config.ts', 'src/config-flags.ts', 'src/settle-worker.ts'],
  // Beside the product, in the same package: the product imports none of them.
  ['src/tools/'],
  ['src/banner.ts', 'src/index.ts'],
  ['src/main.ts', 'src/heap.ts'],
];

/**
 * Imports that still run up a layer while the house moves to its areas (issue 37): the list only
 * shrinks. A new upward import fails, and so does an entry here that no longer occurs.
 */
const KNOWN_UPWARD: readonly string[] = [
  'src/core/env.ts -> src/engine/deps.ts',
  'src/engine/deps.ts -> src/world/scenario-file.ts',
  'src/engine/deps.ts -> src/http/coverage-counts.ts',
  'src/engine/deps.ts -> src/areas/faults/fault-rules.ts',
  'src/engine/deps.ts -> src/areas/requests/journal.ts',
  'src/engine/deps.ts -> src/http/rate-limiter.ts',
  'src/engine/deps.ts -> src/areas/webhooks/deliveries.ts',
  'src/engine/event-log.ts -> src/areas/webhooks/deliveries-store.ts',
  'src/engine/event-log.ts -> src/areas/webhooks/signing.ts',
];

function layerOf(file: string): number {
  const i = LAYERS.findIndex((layer) =>
    layer.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry)),
  );
  if (i < 0) throw new Error(`${file} is in no layer: add it to LAYERS`);
  return i;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** The project files a source imports (type-only imports included: they tie files too). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)];
  return found.map((m) => normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts'))));
}

const files = sources('src');
const graph = new Map(files.map((f) => [f, importsOf(f)]));

test('no import runs up a layer (DESIGN.md section 2)', () => {
  const upward = [...graph].flatMap(([file, targets]) =>
    targets.filter((t) => layerOf(t) > layerOf(file)).map((t) => `${file} -> ${t}`),
  );
  expect(upward.filter((u) => !KNOWN_UPWARD.includes(u))).toEqual([]);
  expect(KNOWN_UPWARD.filter((k) => !upward.includes(k))).toEqual([]);
});

test('no import circles', () => {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const t of graph.get(file) ?? []) visit(t, [...path, file]);
    state.set(file, 'done');
  };
  for (const f of files) visit(f, []);
  expect(circles).toEqual([]);
});

test('every source file sits in a layer', () => {
  for (const f of files) expect(() => layerOf(f)).not.toThrow();
});

test('no source file over 300 lines (issue 10: small files, one idea each)', () => {
  const long = files
    .map((f) => ({ f, lines: readFileSync(f, 'utf8').split('\n').length }))
    .filter(({ lines }) => lines > 300)
    .map(({ f, lines }) => `${f}: ${lines}`);
  expect(long).toEqual([]);
});

test('no module-level mutable state (STYLE.md rule 4: state lives in what createEmulator builds)', () => {
  const MUTABLE =
    /^(?:export )?(?:let |var |const \w+(?::[^=]+)? = new (?:Map|Set|WeakMap|Array)\b)/;
  const found = files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (MUTABLE.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(found).toEqual([]);
});
