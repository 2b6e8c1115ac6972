/** `--coverage-report FILE`: the report at shutdown, JSON to FILE and Markdown beside it. */
import { writeFileSync } from 'node:fs';
import { type SweepView, sweepsMarkdown } from '../../areas/faults/sweep-matrix.js';
import type { CoverageOperation, CoverageReport } from './report.js';

/** Where the Markdown copy of FILE goes. */
export function markdownPath(file: string): string {
  return file.endsWith('.json') ? `${file.slice(0, -'.json'.length)}.md` : `${file}.md`;
}

const outcomeName = (status: number | null, code: string | null) =>
  status === null ? 'dropped' : code === null ? String(status) : `${status} \`${code}\``;

function operationTable(op: CoverageOperation): string[] {
  const lines = [
    `### ${op.method} ${op.route} (\`${op.operation}\`): ${op.calls} call${op.calls === 1 ? '' : 's'}`,
    '',
    '| outcome | documented | seen |',
    '|---|---|---|',
  ];
  for (const o of op.outcomes) {
    const seen = o.seen > 0 ? String(o.seen) : '**never**';
    lines.push(
      `| ${outcomeName(o.status, o.code)} | ${o.documented ? 'yes' : 'inferred'} | ${seen} |`,
    );
  }
  for (const u of op.unlisted) {
    lines.push(`| ${outcomeName(u.status, u.code)} | not listed | ${u.seen} |`);
  }
  return [...lines, ''];
}

/**
 * The report as Markdown: a summary, then one table per operation, unseen outcomes marked, then
 * each fault sweep's matrix (issue 38).
 */
export function coverageMarkdown(
  report: CoverageReport,
  sweeps: readonly SweepView[] = [],
): string {
  const s = report.summary;
  return [
    `# Coverage report${report.account ? ` (account ${report.account})` : ''}`,
    '',
    `${s.exercised} of ${s.operations} operations called; ${s.seen} of ${s.outcomes} outcomes seen` +
      ` (${s.calls} calls; ${s.unmatched_calls} to no operation; ${s.unlisted} outcomes seen that` +
      ' no operation lists). Outcomes marked **never** were not seen.',
    '',
    ...report.operations.flatMap(operationTable),
    sweepsMarkdown(sweeps),
  ].join('\n');
}

/** Writes FILE (JSON) and its Markdown copy; answers both paths. */
export function writeCoverageReport(
  file: string,
  report: CoverageReport,
  sweeps: readonly SweepView[] = [],
): { json: string; markdown: string } {
  const markdown = markdownPath(file);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(markdown, coverageMarkdown(report, sweeps));
  return { json: file, markdown };
}
