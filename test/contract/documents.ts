/** The two served OpenAPI documents, written to a temp dir for the CLI tools that read files. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createEmulator } from '../../src/tools/emulator.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

export const DOCUMENTS = {
  product: '/openapi.json',
  control: '/_control/openapi.json',
} as const;
export type DocumentName = keyof typeof DOCUMENTS;

/** Fetches both documents from an in-process emulator and writes them to a fresh temp dir. */
export async function writeDocuments(): Promise<{
  dir: string;
  files: Record<DocumentName, string>;
}> {
  const emulator = createEmulator({ seed: '0', clock: 'manual' });
  const dir = mkdtempSync(join(tmpdir(), 'svc-emulator-contract-'));
  const files = {} as Record<DocumentName, string>;
  try {
    for (const [name, path] of Object.entries(DOCUMENTS) as [DocumentName, string][]) {
      const res = await emulator.app.request(path);
      files[name] = join(dir, `${name}.json`);
      writeFileSync(files[name], await res.text());
    }
  } finally {
    emulator.close();
  }
  return { dir, files };
}

const execFileP = promisify(execFile);

/** Runs a CLI; resolves with its exit code and output instead of throwing on a non-zero exit. */
export async function run(
  file: string,
  args: string[],
  cwd = ROOT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileP(file, args, {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        NO_COLOR: '1',
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === 'number' ? e.code : 1,
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? '',
    };
  }
}
