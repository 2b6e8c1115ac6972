/**
 * `svc-emulator grade` (issue 38): a running emulator's reports on a client, read from its control
 * API and reduced to one verdict: every finding passes (or is not judged), or one fails.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ControlError, createControlClient } from '../harness/control-client.js';
import type { GradeArgs } from './args.js';
import {
  GRADE_SOURCES,
  type GradeFinding,
  type GradeScope,
  type GradeSource,
  type GradeVerdict,
} from './sources.js';

/** The grade cannot be given: exit 2 with this message. */
export class GradeError extends Error {}

export interface Grade {
  object: 'grade';
  url: string;
  account: string;
  key: string | null;
  /** 0: every finding passes or is not judged; 1: one fails. */
  exit_code: 0 | 1;
  summary: Record<'findings' | 'passed' | 'failed' | 'not_judged' | 'info', number>;
  /** Per source, what it said of itself (`2 keys, 14 calls`). */
  counts: Record<string, string>;
  findings: GradeFinding[];
  /** Each source's report as the control API answered it. */
  sources: Record<string, unknown>;
}

/** A control call's failure, as the reason the grade cannot be given. */
function cannot(err: unknown, url: string, scope: GradeScope): GradeError {
  if (err instanceof ControlError) {
    if (err.status === 401 || err.status === 403)
      return new GradeError(
        `${url} refused the control token (${err.status}): pass the emulator's --control-token`,
      );
    if (err.status === 404 && err.error?.param === 'account')
      return new GradeError(`${url} has no account ${scope.account}`);
    if (err.status === 404 && err.error?.param === 'key')
      return new GradeError(`account ${scope.account} has no key ${scope.key}`);
    return new GradeError(err.message);
  }
  if (err instanceof SyntaxError)
    return new GradeError(`${url} did not answer the control API's JSON: is it svc-emulator?`);
  const cause = (err as { cause?: { code?: string } }).cause?.code;
  return new GradeError(`cannot reach ${url}${cause ? ` (${cause})` : `: ${String(err)}`}`);
}

/**
 * Reads every source at `args.url` and grades what they found.
 * @example const grade = await runGrade({ url, account, key: undefined, controlToken: undefined, report: undefined });
 */
export async function runGrade(
  args: GradeArgs,
  sources: readonly GradeSource[] = GRADE_SOURCES,
): Promise<Grade> {
  const control = createControlClient(args.url, { token: args.controlToken });
  const scope: GradeScope = { account: args.account, key: args.key };
  const findings: GradeFinding[] = [];
  const counts: Record<string, string> = {};
  const raws: Record<string, unknown> = {};
  let subjects = 0;
  for (const source of sources) {
    const result = await source.collect(control, scope).catch((err: unknown) => {
      throw cannot(err, args.url, scope);
    });
    findings.push(...result.findings);
    counts[source.name] = result.counts;
    raws[source.name] = result.raw;
    subjects += result.subjects;
  }
  if (subjects === 0)
    throw new GradeError(
      `nothing to grade: no call of ${args.key ? `key ${args.key}` : `account ${args.account}`} is in the journal and no webhook endpoint of it has receiver chaos (run the suite against ${args.url} first)`,
    );
  const count = (v: GradeVerdict) => findings.filter((f) => f.verdict === v).length;
  return {
    object: 'grade',
    url: args.url,
    account: args.account,
    key: args.key ?? null,
    exit_code: count('fail') > 0 ? 1 : 0,
    summary: {
      findings: findings.length,
      passed: count('pass'),
      failed: count('fail'),
      not_judged: count('not_judged'),
      info: count('info'),
    },
    counts,
    findings,
    sources: raws,
  };
}

const LABEL: Record<GradeVerdict, string> = {
  pass: 'pass',
  fail: 'FAIL',
  not_judged: 'not judged',
  info: 'reported',
};

function summaryLine(grade: Grade): string {
  const s = grade.summary;
  const scope = grade.key ? `key ${grade.key}` : `account ${grade.account}`;
  const counts = Object.values(grade.counts).filter((c) => c !== '');
  return `${scope} (${counts.join('; ')}): ${s.passed} passed, ${s.failed} failed, ${s.not_judged} not judged, ${s.info} reported`;
}

/** What the terminal shows: the summary, each finding in a line, a failing one with its evidence. */
export function gradeText(grade: Grade): string {
  const out = [`svc-emulator grade: ${summaryLine(grade)}`];
  for (const f of grade.findings) {
    out.push(`  ${LABEL[f.verdict].padEnd(10)} ${f.subject}  ${f.rule}: ${f.summary}`);
    if (f.verdict === 'fail') out.push(...f.evidence.map((line) => `             - ${line}`));
  }
  return `${out.join('\n')}\n`;
}

/** FILE.md: the summary, a table of every finding, then each failure with its evidence. */
export function gradeMarkdown(grade: Grade): string {
  const out = [`# Grade: ${grade.exit_code === 0 ? 'pass' : 'FAIL'}`, '', `${summaryLine(grade)}.`];
  out.push('', '| Subject | Rule | Verdict | Summary |', '| --- | --- | --- | --- |');
  for (const f of grade.findings)
    out.push(
      `| ${f.subject} | ${f.title} (\`${f.rule}\`) | ${f.verdict === 'fail' ? '**FAIL**' : LABEL[f.verdict]} | ${f.summary} |`,
    );
  for (const f of grade.findings.filter((f) => f.verdict === 'fail'))
    out.push('', `## ${f.subject}: ${f.title}`, '', ...f.evidence.map((line) => `- ${line}`));
  return `${out.join('\n')}\n`;
}

/** Writes FILE.json and FILE.md; answers their paths. */
export function writeGrade(file: string, grade: Grade): { json: string; markdown: string } {
  const json = `${file}.json`;
  const markdown = `${file}.md`;
  mkdirSync(dirname(json), { recursive: true });
  writeFileSync(json, `${JSON.stringify(grade, null, 2)}\n`);
  writeFileSync(markdown, gradeMarkdown(grade));
  return { json, markdown };
}
