/** The drift report put together and written: FILE.json (everything) and FILE.md (to read). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretSet } from './mask.js';
import type { CheckResult, OperationReport, Report } from './report-types.js';

/** Sums and the flat list of differences, from the operations' checks. */
export function buildReport(
  head: Pick<Report, 'tool' | 'target' | 'contract' | 'requests' | 'options' | 'notes'>,
  operations: OperationReport[],
): Report {
  const checks = operations.flatMap((o) => o.checks);
  return {
    ...head,
    summary: {
      operations: operations.length,
      checks: checks.length,
      differing_checks: checks.filter((c) => c.differences.length > 0).length,
      not_run: operations.reduce((n, o) => n + o.not_run.length, 0),
    },
    differences: operations.flatMap((o) =>
      o.checks.flatMap((c) =>
        c.differences.map((d) => ({ operation: o.operation, check: c.check, ...d })),
      ),
    ),
    operations,
  };
}

/** FILE without a `.json` or `.md` ending: the two files are FILE.json and FILE.md. */
export function reportBase(file: string): string {
  return file.replace(/\.(json|md)$/, '');
}

/** Writes both files, every secret cut from their text last; answers their paths. */
export function writeReport(
  file: string,
  report: Report,
  secrets: SecretSet,
): { json: string; markdown: string } {
  const base = reportBase(file);
  mkdirSync(dirname(base), { recursive: true });
  const json = `${base}.json`;
  const markdown = `${base}.md`;
  writeFileSync(json, secrets.scrub(`${JSON.stringify(report, null, 2)}\n`));
  writeFileSync(markdown, secrets.scrub(reportMarkdown(report)));
  return { json, markdown };
}

const cell = (v: unknown) =>
  (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)))
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');

/** The report as Markdown: the summary, every difference, then each operation's checks. */
export function reportMarkdown(r: Report): string {
  const s = r.summary;
  const title = r.tool === 'verify' ? 'verify' : 'drift';
  const lines = [
    `# svc-emulator ${title}: ${r.target}`,
    '',
    `Contract: ${r.contract}. ${r.requests} requests; ${s.checks} checks over ${s.operations} operations; ` +
      `${s.differing_checks} with differences; ${s.not_run} not run.`,
    '',
    ...r.notes.map((n) => `- ${n}`),
    ...(r.notes.length ? [''] : []),
    '## Differences',
    '',
  ];
  if (r.differences.length === 0) lines.push('None.', '');
  else {
    const inferred = new Map(r.operations.map((o) => [o.operation, o.inferred]));
    lines.push('| operation | check | field | expected | actual |', '|---|---|---|---|---|');
    for (const d of r.differences)
      lines.push(
        `| ${d.operation}${inferred.get(d.operation) ? ' (inferred)' : ''} | ${d.check} | ${d.field}${d.inferred ? ' (inferred)' : ''} | ${cell(d.expected)} | ${cell(d.actual)} |`,
      );
    lines.push('');
  }
  lines.push('## Operations', '');
  for (const op of r.operations) lines.push(...operationSection(op, r.tool));
  return `${lines.join('\n')}\n`;
}

function operationSection(op: OperationReport, tool: Report['tool']): string[] {
  if (op.checks.length === 0 && op.not_run.length === 0) return [];
  const lines = [
    `### ${op.method} ${op.path} (\`${op.operation}\`, ${op.inferred ? 'inferred' : 'documented'})`,
    '',
  ];
  for (const c of op.checks) lines.push(...checkLines(c, tool));
  for (const n of op.not_run) lines.push(`- not run: ${n.check}: ${n.reason}`);
  lines.push('');
  return lines;
}

function checkLines(c: CheckResult, tool: Report['tool']): string[] {
  const n = c.differences.length;
  const mark = n === 0 ? 'agrees' : `**${n} difference${n === 1 ? '' : 's'}**`;
  const head =
    `- ${c.check}: \`${c.request.method} ${c.request.url}\` answered ${c.answer.status}` +
    (c.emulator ? `, the emulator ${c.emulator.status}` : '') +
    `: ${mark}`;
  if (c.differences.length === 0) return [head];
  const second = tool === 'drift' ? 'emulator' : 'expected';
  const shown = { request: c.request, answer: c.answer, [second]: c.emulator ?? c.expected };
  return [
    head,
    ...c.differences.map(
      (d) => `  - ${d.field}: expected ${cell(d.expected)}, got ${cell(d.actual)}`,
    ),
    '',
    '  ```json',
    ...JSON.stringify(shown, null, 2)
      .split('\n')
      .map((l) => `  ${l}`),
    '  ```',
    '',
  ];
}
