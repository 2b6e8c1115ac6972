/**
 * The client report's rules on retrying (issue 38; docs/error-handling.md lists each with its
 * reason): retry what is retryable, boundedly, with waits that grow and differ between calls.
 */
import { answerClass, type ClientCall, waitsOf } from '../requests/calls.js';
import { answerName, type Case, caseOf, type Finding, finding, plural } from './finding.js';

/** More retries than this for one call is a retry storm (p-retry's default is 10). */
export const MAX_RETRIES = 10;
/** A later wait this much longer than the first shows growth (beyond the clocks' granularity). */
export const GROWTH_MS = 5;
/**
 * How often a client that backs off by a factor of 2 with full jitter (each wait drawn evenly
 * between 0 and its backoff) shows a call's `k` waits without growth, every later wait at or under
 * the first: the mean of (w1 / b)^(k-1) / 2^(1 + 2 + ... + (k-1)), which is 1 / (k x 2^(k(k-1)/2)):
 * 1 in 4 for two waits, 1 in 24 for three, 1 in 256 for four, 1 in 5,120 for five.
 */
export function flatByChance(k: number): number {
  return 1 / (k * 2 ** ((k * (k - 1)) / 2));
}
/**
 * No growth fails only when jitter would show it less often than this: a correct client is failed
 * by chance at most once in 1,000 runs (one call retried twice without growth is 1 in 4).
 */
export const FLAT_CHANCE = 0.001;
/** Waits further apart than this at the same retry of two calls are not identical... */
export const JITTER_MS = 3;
/**
 * ...nor than this share of the shortest: a fixed schedule measured on a busy machine arrives up
 * to a tenth late (ky's fixed 300 ms seen as 308 to 348 ms), where jitter spreads a quarter or more.
 */
export const JITTER_SHARE = 0.1;

/**
 * Whether waits at the same retry of different calls differ beyond the clocks' noise. With three
 * or more, the longest is left out: one late timer (an event loop busy for a moment) is not jitter.
 */
export function waitsDiffer(waits: number[]): boolean {
  const sorted = [...waits].sort((a, b) => a - b);
  const kept = sorted.length >= 3 ? sorted.slice(0, -1) : sorted;
  const spread = kept.at(-1)! - kept[0]!;
  return spread > Math.max(JITTER_MS, JITTER_SHARE * kept[0]!);
}

type Rule = { id: string; title: string };

const ms = (n: number) => `${Math.round(n)} ms`;
/** The waits of a call that its client chose: those after an answer without `Retry-After`. */
const freeWaits = (call: ClientCall) => waitsOf(call).filter((w) => w.retryAfter === null);

export function judgeRetried(rule: Rule, calls: ClientCall[]): Finding {
  const judged = calls.filter((c) => answerClass(c.attempts[0]!) === 'retryable');
  const cases = judged.map((c) => {
    const first = c.attempts[0]!;
    return c.attempts.length > 1
      ? caseOf(
          'pass',
          `${answerName(first)} retried ${plural(c.attempts.length - 1, 'time')}`,
          c.attempts,
        )
      : caseOf('fail', `${answerName(first)} was not retried`, [first]);
  });
  const failed = cases.filter((c) => c.verdict === 'fail').length;
  if (judged.length === 0) return finding(rule, 'not_judged', 'No retryable answer was met.', []);
  const summary = `${judged.length - failed} of ${plural(judged.length, 'retryable answer')} retried.`;
  return finding(rule, failed ? 'fail' : 'pass', summary, cases);
}

export function judgeBounded(rule: Rule, calls: ClientCall[]): Finding {
  const judged = calls.filter((c) => c.attempts.length > 1);
  if (judged.length === 0) return finding(rule, 'not_judged', 'No call was retried.', []);
  const cases = judged.map((c) => {
    const n = c.attempts.length - 1;
    return n > MAX_RETRIES
      ? caseOf(
          'fail',
          `${c.method} ${c.path} retried ${n} times (more than ${MAX_RETRIES})`,
          c.attempts,
        )
      : caseOf('pass', `${c.method} ${c.path} retried ${plural(n, 'time')}`, c.attempts);
  });
  const most = Math.max(...judged.map((c) => c.attempts.length - 1));
  const failed = cases.some((c) => c.verdict === 'fail');
  return finding(
    rule,
    failed ? 'fail' : 'pass',
    `At most ${plural(most, 'retry')} of one call.`,
    cases,
  );
}

/**
 * Judged on calls with two waits or more that the client chose; the key passes when any of them
 * grows (full jitter can make one call's waits shrink by chance), fails when none does and that
 * many flat calls would be chance for a jittered backoff less than `FLAT_CHANCE` of the time; with
 * fewer, not judged (docs/error-handling.md).
 */
export function judgeBackoff(rule: Rule, calls: ClientCall[]): Finding {
  const judged = calls.filter((c) => freeWaits(c).length >= 2);
  if (judged.length === 0)
    return finding(
      rule,
      'not_judged',
      'No call was retried twice after answers without Retry-After: one wait cannot show growth.',
      [],
    );
  const cases = judged.map((c) => {
    const waits = freeWaits(c);
    const grows = Math.max(...waits.slice(1).map((w) => w.ms)) > waits[0]!.ms + GROWTH_MS;
    const note = `${c.method} ${c.path}: waits ${waits.map((w) => ms(w.ms)).join(', ')}`;
    return caseOf(grows ? 'pass' : 'fail', `${note}${grows ? '' : ': no growth'}`, c.attempts);
  });
  const growing = cases.filter((c) => c.verdict === 'pass').length;
  const chance = judged.reduce((p, c) => p * flatByChance(freeWaits(c).length), 1);
  if (!growing && chance >= FLAT_CHANCE)
    return finding(
      rule,
      'not_judged',
      `No call retried twice or more waited longer later, but a client backing off with jitter ` +
        `shows ${plural(judged.length, 'call')} like these about 1 in ${Math.round(1 / chance)} times: ` +
        'too few to tell.',
      cases.map((c) => ({ ...c, verdict: 'info' })),
    );
  const summary = `${growing} of ${plural(judged.length, 'call')} retried twice or more wait longer later.`;
  // Pooled: one growing call shows backoff; the others are noted, not failed.
  const pooled: Case[] = cases.map((c) =>
    growing && c.verdict === 'fail' ? { ...c, verdict: 'info' } : c,
  );
  return finding(rule, growing ? 'pass' : 'fail', summary, pooled);
}

/** The same retry of different calls: jittered waits differ, fixed ones are identical. */
export function judgeJitter(rule: Rule, calls: ClientCall[]): Finding {
  const byRetry: { call: ClientCall; wait: ReturnType<typeof waitsOf>[number] }[][] = [];
  for (const call of calls)
    freeWaits(call).forEach((wait, i) => {
      byRetry[i] ??= [];
      byRetry[i]!.push({ call, wait });
    });
  const compared = byRetry.flatMap((list, i) => (list.length >= 2 ? [{ list, i }] : []));
  if (compared.length === 0)
    return finding(
      rule,
      'not_judged',
      'Fewer than two calls were retried after answers without Retry-After: nothing to compare.',
      [],
    );
  // Two jittered waits can fall close by chance: only three or more the same show a fixed schedule.
  const cases = compared.map(({ list, i }) => {
    const waits = list.map((x) => x.wait.ms);
    const note = `retry ${i + 1} of ${list.length} calls: waits ${waits.map(ms).join(', ')}`;
    const verdict = waitsDiffer(waits) ? 'pass' : waits.length >= 3 ? 'fail' : 'info';
    return caseOf(
      verdict,
      verdict === 'info' ? `${note} (two close waits can be chance)` : note,
      list.map((x) => x.wait.next),
    );
  });
  const differs = cases.some((c) => c.verdict === 'pass');
  const same = cases.some((c) => c.verdict === 'fail');
  const pooled: Case[] = cases.map((c) =>
    differs && c.verdict === 'fail' ? { ...c, verdict: 'info' } : c,
  );
  if (!differs && !same)
    return finding(
      rule,
      'not_judged',
      'Only two calls were compared at each retry, and their waits were close: that can be chance.',
      pooled,
    );
  const summary = differs
    ? 'The waits differ between calls.'
    : `The waits are the same (within ${JITTER_SHARE * 100}% or ${JITTER_MS} ms) at every retry compared.`;
  return finding(rule, differs ? 'pass' : 'fail', summary, pooled);
}
