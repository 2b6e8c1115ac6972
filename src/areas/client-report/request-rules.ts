/**
 * The client report's rules on what a retry sends and when (issue 38; docs/error-handling.md
 * lists each with its reason): `Retry-After` honoured, no final answer sent again unchanged, the
 * first `Idempotency-Key` on every retried POST, no duplicate after a lost answer, and how long a
 * hung answer was waited for (reported, not judged).
 */
import { answerClass, type ClientCall, waitsOf } from '../requests/calls.js';
import type { JournalEntry } from '../requests/journal.js';
import { answerName, caseOf, type Finding, finding, plural } from './finding.js';

/** A retry this much sooner than `Retry-After` still honours it: the clocks' granularity. */
export const RETRY_AFTER_GRACE_MS = 10;

type Rule = { id: string; title: string };

/** RFC 9110 section 10.2.3: `Retry-After` is how long the client ought to wait. */
export function judgeRetryAfter(rule: Rule, calls: ClientCall[]): Finding {
  const waits = calls.flatMap(waitsOf).filter((w) => w.retryAfter !== null);
  if (waits.length === 0)
    return finding(rule, 'not_judged', 'No answer with Retry-After was retried.', []);
  const cases = waits.map((w) => {
    const asked = w.retryAfter! * 1000;
    const ok = w.ms >= asked - RETRY_AFTER_GRACE_MS;
    const note = `${answerName(w.after)} asked ${w.retryAfter} s; the retry came ${Math.round(w.ms)} ms later`;
    return caseOf(ok ? 'pass' : 'fail', note, [w.after, w.next]);
  });
  const early = cases.filter((c) => c.verdict === 'fail').length;
  const summary = early
    ? `${early} of ${plural(waits.length, 'retry')} came sooner than Retry-After asked.`
    : `${plural(waits.length, 'retry')} after Retry-After, none sooner than asked.`;
  return finding(rule, early ? 'fail' : 'pass', summary, cases);
}

export function judgeFinalResent(rule: Rule, calls: ClientCall[]): Finding {
  const finals = calls.flatMap((c) => c.attempts).filter((e) => answerClass(e) === 'final');
  if (finals.length === 0)
    return finding(rule, 'not_judged', 'No 400, 401, 403, 404, 409 or 422 was met.', []);
  const resent = calls.filter((c) => c.resends !== null);
  const cases = resent.map((c) =>
    caseOf('fail', `${answerName(c.resends!)} to ${c.method} ${c.path}, sent again unchanged`, [
      c.resends!,
      c.attempts[0]!,
    ]),
  );
  const summary = `${resent.length} of ${plural(finals.length, 'final answer')} sent again unchanged.`;
  return finding(rule, resent.length ? 'fail' : 'pass', summary, cases);
}

export function judgeIdempotencyKeys(rule: Rule, calls: ClientCall[]): Finding {
  const judged = calls.filter((c) => c.method === 'POST' && c.attempts.length > 1);
  if (judged.length === 0) return finding(rule, 'not_judged', 'No POST was retried.', []);
  const cases = judged.map((c) => {
    const first = c.attempts[0]!.idempotency_key;
    const changed = c.attempts.find((e) => e.idempotency_key !== first);
    const what =
      first === null
        ? 'without an Idempotency-Key'
        : changed
          ? `with ${changed.idempotency_key === null ? 'no' : 'another'} Idempotency-Key than its first attempt's`
          : `with its first Idempotency-Key`;
    const ok = first !== null && !changed;
    return caseOf(ok ? 'pass' : 'fail', `POST ${c.path} retried ${what}`, c.attempts);
  });
  const failed = cases.filter((c) => c.verdict === 'fail').length;
  const summary = `${judged.length - failed} of ${plural(judged.length, 'retried POST')} kept the first Idempotency-Key.`;
  return finding(rule, failed ? 'fail' : 'pass', summary, cases);
}

/** An attempt whose work succeeded but whose answer a fault `after` took away. */
const lostWrite = (e: JournalEntry) =>
  e.method === 'POST' && e.fault_after && e.work_status !== null && e.work_status < 300;

export function judgeDuplicates(rule: Rule, calls: ClientCall[]): Finding {
  const cases = calls.flatMap((c) =>
    c.attempts.flatMap((lost, i) => {
      if (!lostWrite(lost)) return [];
      const made = lost.resource_id ? ` (${lost.resource_id})` : '';
      const dup = c.attempts
        .slice(i + 1)
        .find((e) => e.status !== null && e.status < 300 && !e.idempotent_replayed);
      if (!dup)
        return [
          caseOf(
            'pass',
            `POST ${c.path}: its lost answer${made} left no duplicate`,
            c.attempts.slice(i),
          ),
        ];
      const second = dup.resource_id ? ` ${dup.resource_id}` : ' another';
      return [
        caseOf(
          'fail',
          `POST ${c.path}: the write whose answer was lost${made} was made again:${second}`,
          [lost, dup],
        ),
      ];
    }),
  );
  if (cases.length === 0)
    return finding(
      rule,
      'not_judged',
      'No write lost its answer after the work (a fault `after`).',
      [],
    );
  const dups = cases.filter((c) => c.verdict === 'fail').length;
  const summary = `${dups} of ${plural(cases.length, 'lost answer')} left a duplicate resource.`;
  return finding(rule, dups ? 'fail' : 'pass', summary, cases);
}

export function reportHangs(rule: Rule, calls: ClientCall[]): Finding {
  const hung = calls.flatMap((c) => c.attempts).filter((e) => e.hang_ms !== null);
  if (hung.length === 0) return finding(rule, 'not_judged', 'No answer was hung.', []);
  const cases = hung.map((e) =>
    caseOf(
      'info',
      e.client_closed
        ? `the client gave up after ${Math.round(e.duration_ms)} ms of a ${e.hang_ms} ms hang`
        : `the client waited out the whole ${e.hang_ms} ms hang`,
      [e],
    ),
  );
  const gaveUp = hung.filter((e) => e.client_closed).length;
  const summary = `${gaveUp} of ${plural(hung.length, 'hung answer')} abandoned by the client before the hang ended.`;
  return finding(rule, 'info', summary, cases);
}
