/**
 * Typed results in generated clients (issue 28 item 5): openapi-typescript generates types from
 * the served documents into a temp folder; `results-client.ts` (openapi-fetch) reads one `result`
 * field of every kind with no casts and compiles under strict tsc, beside a generated check that
 * every registered kind's `result` is typed field by field; then it runs against an emulator. A
 * document whose result is free-form fails the same build. (@hey-api/openapi-ts needs Node 22.18+,
 * so only openapi-typescript is tried here.)
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REGISTERED_KINDS } from '../../src/kinds/index.js';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { bin, ROOT, run, writeDocuments } from './documents.js';
import { type OpenApiDocument, responseSchema } from './schema-check.js';

/** The temp folders made, removed at the end (the node_modules links in them, not their targets). */
const made: string[] = [];
let emulator: RunningEmulator;

/** Each kind's resource schema in the document, as its `GET` answers it. */
function resourceNames(doc: OpenApiDocument): string[] {
  return REGISTERED_KINDS.map(({ routes }) => {
    const schema = responseSchema(doc, routes.get!.path, 'get', 200);
    return String(schema.$ref).split('/').at(-1)!;
  });
}

/** A folder with generated types, the client, the kinds check and a strict tsconfig. */
async function project(folder: string, product: string, control: string, names: string[]) {
  mkdirSync(folder, { recursive: true });
  for (const [name, file] of [
    ['product', product],
    ['control', control],
  ]) {
    const out = await run(bin('openapi-typescript'), [file!, '-o', join(folder, `${name}.ts`)]);
    expect(out.code, out.stderr).toBe(0);
  }
  copyFileSync(join(import.meta.dirname, 'results-client.ts'), join(folder, 'results-client.ts'));
  writeFileSync(
    join(folder, 'typed-results.ts'),
    [
      "import type { components } from './product.js';",
      "type Schemas = components['schemas'];",
      '/** `true` for a result typed field by field; `never` (so `true` fails) when free-form. */',
      'type Typed<R> = unknown extends R ? never : string extends keyof NonNullable<R> ? never : true;',
      'export const typed: {',
      ...names.map((n) => `  ${n}: Typed<Schemas['${n}']['result']>;`),
      '} = {',
      ...names.map((n) => `  ${n}: true,`),
      '};',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(folder, 'run.ts'),
    "import { readResults } from './results-client.js';\nconsole.log(JSON.stringify(await readResults(process.argv[2] ?? '')));\n",
  );
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir');
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        outDir: 'out',
        skipLibCheck: true,
        verbatimModuleSyntax: true,
        types: ['node'],
      },
      files: ['run.ts', 'typed-results.ts'],
    }),
  );
  return run(bin('tsc'), ['-p', join(folder, 'tsconfig.json')]);
}

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator?.stop();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

test("a strict client reading one field of every kind's result compiles, and runs", async () => {
  const written = await writeDocuments();
  made.push(written.dir);
  const { dir } = written;
  const doc = JSON.parse(readFileSync(written.files.product, 'utf8')) as OpenApiDocument;
  const names = resourceNames(doc);
  const out = await project(
    join(dir, 'typed'),
    written.files.product,
    written.files.control,
    names,
  );
  expect(out.stdout + out.stderr).toBe('');
  expect(out.code).toBe(0);

  const ran = await run(process.execPath, [join(dir, 'typed', 'out', 'run.js'), emulator.baseUrl]);
  expect(ran.stderr).toBe('');
  const { secret, reads } = JSON.parse(ran.stdout) as {
    secret: string;
    reads: Record<string, { id: string; field: string; value: unknown }>;
  };
  expect(Object.keys(reads).sort()).toEqual(REGISTERED_KINDS.map((r) => r.kind.name).sort());
  // Each value read is the one the run's body has at that field.
  for (const { kind, routes } of REGISTERED_KINDS) {
    const read = reads[kind.name]!;
    const path = routes.get!.path.replace(`{${routes.idParam}}`, read.id);
    const res = await fetch(`${emulator.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    const body = (await res.json()) as { result: Record<string, unknown> };
    const value = read.field.split('.').reduce<unknown>((o, k) => (o as never)?.[k], body.result);
    expect({ kind: kind.name, value }).toEqual({ kind: kind.name, value: read.value });
    expect(['number', 'boolean']).toContain(typeof value);
  }
});

test('a document whose result is free-form fails that build', async () => {
  const written = await writeDocuments();
  made.push(written.dir);
  const doc = JSON.parse(readFileSync(written.files.product, 'utf8')) as OpenApiDocument;
  // What `result` was before issue 28: `Record<string, unknown>`, nullable.
  doc.components.schemas.AugmentationResult = {
    type: ['object', 'null'],
    additionalProperties: {},
  };
  const free = join(written.dir, 'free-form.json');
  writeFileSync(free, JSON.stringify(doc));
  const out = await project(
    join(written.dir, 'free'),
    free,
    written.files.control,
    resourceNames(doc),
  );
  expect(out.code).not.toBe(0);
  expect(out.stdout).toMatch(/results-client\.ts\(\d+,\d+\): error TS2322: Type 'unknown'/);
  // The kinds check names the kind: its error is on the line of `Augmentation: true`.
  const lines = readFileSync(join(written.dir, 'free', 'typed-results.ts'), 'utf8').split('\n');
  const line = lines.indexOf('  Augmentation: true,') + 1;
  expect(out.stdout).toContain(`typed-results.ts(${line},3): error TS2322`);
});
