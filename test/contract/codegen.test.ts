/**
 * Code generation from the served documents (issue 13, part 3): openapi-typescript types both,
 * `typed-client.ts` (openapi-fetch) compiles against them under strict tsc, and runs against a
 * running emulator: create, advance the clock, poll to succeeded, list files, download with a
 * checked sha256, resume a failed run. Generated files go to `.generated/` (git-ignored).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { bin, type DocumentName, run, writeDocuments } from './documents.js';

const GENERATED = join(import.meta.dirname, '.generated');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator?.stop();
});

test('openapi-typescript generates types from both served documents', async () => {
  const { dir, files } = await writeDocuments();
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  rmSync(GENERATED, { recursive: true, force: true });
  mkdirSync(GENERATED, { recursive: true });
  for (const name of ['product', 'control'] as DocumentName[]) {
    const out = await run(bin('openapi-typescript'), [
      files[name],
      '-o',
      join(GENERATED, `${name}.ts`),
    ]);
    expect(out.code, out.stderr).toBe(0);
  }
});

test('the typed client compiles under strict tsc', async () => {
  writeFileSync(
    join(GENERATED, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        skipLibCheck: true,
        verbatimModuleSyntax: true,
        types: ['node'],
      },
      files: ['../typed-client.ts'],
    }),
  );
  const out = await run(bin('tsc'), ['-p', join(GENERATED, 'tsconfig.json')]);
  expect(out.stdout + out.stderr).toBe('');
  expect(out.code).toBe(0);
});

/** What the fixture's walkthrough answers (its own types come from the generated files). */
interface Walkthrough {
  created: { object: string; status: string };
  succeeded: { status: string; download?: { sha256: string } | null };
  files: string[];
  archiveSha256: string;
  resumed: { status: string };
  resumedFinal: { status: string };
  faulted: string | null;
}

test('the typed client runs against a running emulator', async () => {
  // Not a literal specifier: the repository typecheck runs before the types are generated, and
  // a literal would pull the fixture (and its generated imports) into it.
  const fixture = './typed-client.js';
  const { walkthrough } = (await import(fixture)) as {
    walkthrough: (baseUrl: string) => Promise<Walkthrough>;
  };
  const w = await walkthrough(emulator.baseUrl);
  expect(w.created).toMatchObject({ object: 'evaluation', status: 'queued' });
  expect(w.succeeded.status).toBe('succeeded');
  expect(w.files.length).toBeGreaterThan(2);
  expect(w.files).toContain('episodes/0001.json');
  expect(w.archiveSha256).toBe(w.succeeded.download?.sha256);
  expect(w.resumed.status).toBe('queued');
  expect(w.resumedFinal.status).toBe('succeeded');
  expect(w.faulted).toBe('launch_failed');
});
