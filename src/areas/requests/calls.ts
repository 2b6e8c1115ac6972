/**
 * The journal read as a client's calls (issue 38): per key, each call and its attempts. An attempt
 * sent again after a failure it may retry (the same method, path and body, whatever its
 * Idempotency-Key) is a retry of that call; anything else starts a new call. The client report and
 * the sweeps' matrix judge these.
 */
import type { JournalEntry } from './journal.js';

/**
 * API document section 7: 429 (honor `Retry-After`), 502 (safe to retry), 503 and 504 (5xx,
 * `api_error`); a connection dropped or held without an answer too.
 */
export const RETRYABLE_STATUSES: readonly number[] = [429, 502, 503, 504];
/** Answers that say the request itself is wrong: sending it again unchanged cannot help. */
export const FINAL_STATUSES: readonly number[] = [400, 401, 403, 404, 409, 422];

/**
 * How an answer bears on what a careful client does next: `retryable` must be retried, `may_retry`
 * (a 500: safe only for idempotent requests) may be, `final` must not be sent again unchanged.
 */
export type AnswerClass = 'success' | 'retryable' | 'may_retry' | 'final' | 'other';

export function answerClass(e: JournalEntry): AnswerClass {
  const s = e.status;
  if (s === null || RETRYABLE_STATUSES.includes(s)) return 'retryable';
  if (s < 400) return 'success';
  if (s === 500) return 'may_retry';
  return FINAL_STATUSES.includes(s) ? 'final' : 'other';
}

/** Wall ms the attempt was received. */
export const receivedAt = (e: JournalEntry) => e.wall_ms - e.duration_ms;
/** Wall ms the attempt was answered (or its connection ended). */
export const answeredAt = (e: JournalEntry) => e.wall_ms;

/** One call: its first attempt and every retry, in order. */
export interface ClientCall {
  key: string;
  method: string;
  path: string;
  attempts: JournalEntry[];
  /** The earlier attempt this call repeats unchanged although its answer was final. */
  resends: JournalEntry | null;
}

/** The wall ms between an answer and the next attempt, and the `Retry-After` it had asked. */
export interface Wait {
  after: JournalEntry;
  next: JournalEntry;
  ms: number;
  retryAfter: number | null;
}

/** The waits between a call's attempts, in order. */
export function waitsOf(call: ClientCall): Wait[] {
  return call.attempts.slice(1).map((next, i) => {
    const after = call.attempts[i]!;
    return { after, next, ms: receivedAt(next) - answeredAt(after), retryAfter: after.retry_after };
  });
}

const signature = (e: JournalEntry) => `${e.method} ${e.path} ${e.body_digest ?? ''}`;

/**
 * Each key's calls, in the order of their first attempts; entries without a key (refused before
 * one was known) are left out.
 * @example callsByKey(journal.filter({ account })).get('key_...')
 */
export function callsByKey(entries: Iterable<JournalEntry>): Map<string, ClientCall[]> {
  const byKey = new Map<string, ClientCall[]>();
  const open = new Map<string, ClientCall>();
  for (const e of entries) {
    if (e.key_id === null) continue;
    const sig = `${e.key_id} ${signature(e)}`;
    const last = open.get(sig);
    const lastClass = last && answerClass(last.attempts.at(-1)!);
    if (last && (lastClass === 'retryable' || lastClass === 'may_retry')) {
      last.attempts.push(e);
      continue;
    }
    const call: ClientCall = {
      key: e.key_id,
      method: e.method,
      path: e.path,
      attempts: [e],
      resends: last && lastClass === 'final' ? last.attempts.at(-1)! : null,
    };
    open.set(sig, call);
    const calls = byKey.get(e.key_id) ?? [];
    if (calls.length === 0) byKey.set(e.key_id, calls);
    calls.push(call);
  }
  return byKey;
}
