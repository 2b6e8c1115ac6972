/** The client report as Markdown (`Accept: text/markdown`, `format=markdown`): for a CI log or a PR. */
import type { Case } from './finding.js';
import type { ClientReport } from './report.js';

const VERDICT = { pass: 'pass', fail: '**FAIL**', not_judged: 'not judged', info: 'reported' };

function caseLine(c: Case): string {
  const requests = c.requests
    .map((r) => `\`${r.request_id}\` ${r.status ?? 'no answer'} at ${r.received_at}`)
    .join('; ');
  return `- ${c.verdict === 'fail' ? '**fail**' : c.verdict}: ${c.note} (${requests})`;
}

/**
 * The report as a Markdown document: a table of findings per key, then the cases of each.
 * @example clientReportMarkdown(clientReport(entries, scope))
 */
export function clientReportMarkdown(report: ClientReport): string {
  const s = report.summary;
  const scope = report.key ? `key ${report.key}` : `account ${report.account}`;
  const out = [
    `# Client report (${scope})`,
    '',
    `${s.keys} keys, ${s.calls} calls: ${s.passed} findings passed, ${s.failed} failed, ${s.not_judged} not judged, ${s.info} reported.`,
  ];
  if (report.keys.length === 0) out.push('', 'No call of this account is in the journal.');
  for (const k of report.keys) {
    out.push('', `## Key ${k.key} (${k.calls} calls, ${k.retries} retries)`, '');
    out.push('| Rule | Verdict | Summary |', '| --- | --- | --- |');
    for (const f of k.findings)
      out.push(`| ${f.title} (\`${f.rule}\`) | ${VERDICT[f.verdict]} | ${f.summary} |`);
    for (const f of k.findings.filter((f) => f.cases.length > 0)) {
      out.push('', `### ${f.title}: ${VERDICT[f.verdict]}`, '', ...f.cases.map(caseLine));
      if (f.cases_total > f.cases.length)
        out.push(`- ... and ${f.cases_total - f.cases.length} more`);
    }
  }
  return `${out.join('\n')}\n`;
}
