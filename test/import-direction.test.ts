import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { expect, test } from 'vitest';

/**
 * DESIGN.md section 2's direction of imports, as data: a file may import files of its own
 * layer or of a layer below, never above. Bottom first. A folder entry ends with `/`.
 * Departure from DESIGN.md: `control/` sits above `http/` (it reuses the docs page, the
 * validation hook and the error renderer), and `emulator.ts` composes the two; neither mounts
 * the other.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['src/messages.ts'],
  ['src/errors.ts'],
  ['src/contract/'],
  ['src/domain/', 'src/prng.ts', 'src/ids.ts'],
  // Run kinds: data and pure functions on domain/ (DESIGN.md section 7), driven by runtime/.
  ['src/kinds/'],
  ['src/store/'],
  ['src/runtime/'],
  ['src/world/'],
  ['src/api/'],
  ['src/http/'],
  ['src/control/'],
  ['src/emulator.ts', 'src/config.ts', 'src/config-flags.ts'],
  ['src/banner.ts', 'src/testing/', 'src/index.ts'],
  // verify, drift and the proxy: clients of the whole emulator, started by main.ts (docs/verify.md).
  ['src/main.ts', 'src/heap.ts', 'src/testcontainers/', 'src/verify/'],
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
    targets
      .filter((t) => layerOf(t) > layerOf(file))
      .map((t) => `${file} (layer ${layerOf(file)}) -> ${t} (layer ${layerOf(t)})`),
  );
  expect(upward).toEqual([]);
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
