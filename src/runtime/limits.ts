import type { Account, EvaluationRecord } from '../domain/records.js';
import { apiError, MESSAGES } from '../errors.js';
import type { Deps } from '../runtime/deps.js';

/** When a run gives its slot back: its cancel completing, or its attempt ending. */
function slotFreeAt(record: EvaluationRecord): number | null {
  const run = record.state.run;
  if (!run) return null;
  if (run.cancel && run.cancel.at < run.schedule.endMs) return run.cancel.doneAt;
  return run.schedule.endMs;
}

/**
 * `concurrent_runs` (DESIGN.md section 3: after 402, before success): called once the new or
 * resumed run is written, inside the caller's transaction, so throwing leaves nothing behind.
 * `Retry-After` is the whole seconds until the first other active run frees its slot on the
 * account's clock (60 when none of them runs on the clock).
 */
export function assertConcurrency(deps: Deps, account: Account, runId: string, now: number): void {
  const limit = account.limits.concurrent_runs;
  if (limit === undefined) return;
  const active = deps.store.evaluations.active(account.id);
  if (active.length <= limit) return;
  const frees = active
    .filter((r) => r.id !== runId)
    .map(slotFreeAt)
    .filter((t): t is number => t !== null);
  const first = frees.length > 0 ? Math.min(...frees) : now + 60_000;
  throw apiError('concurrency_limit_exceeded', {
    message: MESSAGES.concurrencyLimited(limit, active.length - 1),
    details: { limit, active: active.length - 1 },
    headers: { 'Retry-After': String(Math.max(1, Math.ceil((first - now) / 1000))) },
  });
}
