/** What the client report says (issue 38): findings, each with the cases that show it. */
import { toTimestamp } from '../../core/timestamp.js';
import { answeredAt, receivedAt } from '../requests/calls.js';
import type { JournalEntry } from '../requests/journal.js';

/** `not_judged`: too little evidence (never a failure); `info`: reported, not judged. */
export type Verdict = 'pass' | 'fail' | 'not_judged' | 'info';

/** One request of the evidence, with its wall times. */
export interface Evidence {
  request_id: string;
  method: string;
  path: string;
  status: number | null;
  code: string | null;
  idempotency_key: string | null;
  retry_after: number | null;
  received_at: string;
  answered_at: string;
}

/** One thing seen: what it shows and the requests that show it. */
export interface Case {
  verdict: 'pass' | 'fail' | 'info';
  note: string;
  requests: Evidence[];
}

export interface Finding {
  rule: string;
  title: string;
  verdict: Verdict;
  summary: string;
  /** The failing cases first, at most `MAX_CASES` of them. */
  cases: Case[];
  cases_total: number;
}

/** Cases kept per finding: enough to act on, bounded whatever the suite's size. */
export const MAX_CASES = 20;

export function evidence(e: JournalEntry): Evidence {
  return {
    request_id: e.request_id,
    method: e.method,
    path: e.path,
    status: e.status,
    code: e.code,
    idempotency_key: e.idempotency_key ?? null,
    retry_after: e.retry_after ?? null,
    received_at: toTimestamp(receivedAt(e)),
    answered_at: toTimestamp(answeredAt(e)),
  };
}

export const caseOf = (verdict: Case['verdict'], note: string, entries: JournalEntry[]): Case => ({
  verdict,
  note,
  requests: entries.map(evidence),
});

/** A finding from its cases: failing ones first, cut to `MAX_CASES`. */
export function finding(
  rule: { id: string; title: string },
  verdict: Verdict,
  summary: string,
  cases: Case[],
): Finding {
  const ordered = [
    ...cases.filter((c) => c.verdict === 'fail'),
    ...cases.filter((c) => c.verdict !== 'fail'),
  ];
  return {
    rule: rule.id,
    title: rule.title,
    verdict,
    summary,
    cases: ordered.slice(0, MAX_CASES),
    cases_total: cases.length,
  };
}

/** `a 502`, `a dropped connection`: an answer as a sentence names it. */
export function answerName(e: JournalEntry): string {
  if (e.status !== null) return `a ${e.status}${e.code ? ` ${e.code}` : ''}`;
  return e.hang_ms !== null ? 'a hung answer' : 'a dropped connection';
}

export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
