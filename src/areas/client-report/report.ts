/**
 * The client report (issue 38): each key's traffic in the journal, judged against the rules a
 * careful client follows; keys are told apart, so parallel test workers each get their own.
 */
import { callsByKey } from '../requests/calls.js';
import type { JournalEntry } from '../requests/journal.js';
import type { Finding } from './finding.js';
import { judgeCalls } from './rules.js';

export interface KeyReport {
  key: string;
  calls: number;
  retries: number;
  findings: Finding[];
}

export interface ClientReport {
  object: 'client_report';
  account: string;
  key: string | null;
  summary: {
    keys: number;
    calls: number;
    passed: number;
    failed: number;
    not_judged: number;
    info: number;
  };
  keys: KeyReport[];
}

/**
 * The report of `entries` (the journal's, oldest first, of one account or one key).
 * @example clientReport(journal.filter({ account }), { account, key: null })
 */
export function clientReport(
  entries: Iterable<JournalEntry>,
  scope: { account: string; key: string | null },
): ClientReport {
  const keys = [...callsByKey(entries)].map(([key, calls]) => ({
    key,
    calls: calls.length,
    retries: calls.reduce((n, c) => n + c.attempts.length - 1, 0),
    findings: judgeCalls(calls),
  }));
  const all = keys.flatMap((k) => k.findings);
  const count = (v: Finding['verdict']) => all.filter((f) => f.verdict === v).length;
  return {
    object: 'client_report',
    ...scope,
    summary: {
      keys: keys.length,
      calls: keys.reduce((n, k) => n + k.calls, 0),
      passed: count('pass'),
      failed: count('fail'),
      not_judged: count('not_judged'),
      info: count('info'),
    },
    keys,
  };
}
