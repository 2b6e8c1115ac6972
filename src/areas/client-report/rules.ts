/**
 * The rules a careful client follows (DESIGN.md section 8), as data, in the order the report
 * lists them: its id, its title, and the judge of a key's calls. docs/error-handling.md gives the
 * reason of each.
 */
import type { ClientCall } from '../requests/calls.js';
import type { Finding } from './finding.js';
import {
  judgeDuplicates,
  judgeFinalResent,
  judgeIdempotencyKeys,
  judgeRetryAfter,
  reportHangs,
} from './request-rules.js';
import { judgeBackoff, judgeBounded, judgeJitter, judgeRetried } from './retry-rules.js';

interface ClientRule {
  id: string;
  title: string;
  judge(rule: { id: string; title: string }, calls: ClientCall[]): Finding;
}

export const CLIENT_RULES: readonly ClientRule[] = [
  { id: 'retryable_retried', title: 'A retryable answer is retried', judge: judgeRetried },
  { id: 'retries_bounded', title: 'Retries are bounded (no retry storm)', judge: judgeBounded },
  { id: 'backoff', title: 'Waits between retries grow (backoff)', judge: judgeBackoff },
  { id: 'jitter', title: 'Waits differ between calls (jitter)', judge: judgeJitter },
  { id: 'retry_after_honoured', title: 'No retry sooner than Retry-After', judge: judgeRetryAfter },
  { id: 'final_not_resent', title: 'A 4xx is not sent again unchanged', judge: judgeFinalResent },
  {
    id: 'idempotency_key_kept',
    title: 'A retried POST keeps its first Idempotency-Key',
    judge: judgeIdempotencyKeys,
  },
  {
    id: 'no_duplicate_write',
    title: 'A write whose answer was lost leaves no duplicate',
    judge: judgeDuplicates,
  },
  { id: 'hang_abandoned', title: 'How long a hung answer was waited for', judge: reportHangs },
];

/** Every rule's finding on one key's calls, in order. */
export const judgeCalls = (calls: ClientCall[]): Finding[] =>
  CLIENT_RULES.map((rule) => rule.judge(rule, calls));
