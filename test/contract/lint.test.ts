/**
 * The served documents pass the linters API engineers run on them: Spectral's `spectral:oas`
 * with no error and no warning, Redocly's `recommended` with no error (issue 13, part 3).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bin, type DocumentName, run, writeDocuments } from './documents.js';

let dir: string;
let files: Record<DocumentName, string>;
beforeAll(async () => {
  ({ dir, files } = await writeDocuments());
  writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  severity: number;
}

interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

describe.each(['product', 'control'] as const)('the %s document', (name) => {
  test('spectral:oas: 0 errors, 0 warnings', async () => {
    const ruleset = join(dir, '.spectral.yaml');
    const out = await run(bin('spectral'), [
      'lint',
      '--ruleset',
      ruleset,
      '--fail-severity=warn',
      '--format=json',
      '--quiet',
      files[name],
    ]);
    const results = JSON.parse(
      out.stdout.slice(0, out.stdout.lastIndexOf(']') + 1),
    ) as SpectralResult[];
    expect(results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
    expect(out.code, out.stderr).toBe(0);
  });

  test('redocly recommended: 0 errors', async () => {
    const out = await run(bin('redocly'), [
      'lint',
      '--extends=recommended',
      '--format=json',
      files[name],
    ]);
    const report = JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as RedoclyReport;
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // Warnings are allowed by the issue; none today, and a new one shows here.
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });
});
