import { apiError, MESSAGES } from '../core/errors.js';
import type { Account } from '../core/records.js';
import type { Deps } from './deps.js';
import type { RunRecord } from './records.js';

/** When a run gives its slot back: its cancel completing, or its attempt ending. */
function slotFreeAt(record: RunRecord): number | null {
  const run = record.state.run;
  if (!run) return null;
  if (run.cancel && run.cancel.at < run.schedule.endMs) return run.cancel.doneAt;
  return run.schedule.endMs;
}

/** Whole seconds until the first of `others` frees its slot (60 when none runs on the clock). */
function retryAfter(others: RunRecord[], now: number): string {
  const frees = others.map(slotFreeAt).filter((t): t is number => t !== null);
  const first = frees.length > 0 ? Math.min(...frees) : now + 60_000;
  return String(Math.max(1, Math.ceil((first - now) / 1000)));
}

/**
 * `concurrent_runs` (DESIGN.md section 3: after 402, before success), checked once the run is
 * written, in the caller's transaction. Runs of every kind hold a slot; `Retry-After` is the
 * seconds until the first frees one on the account's clock (60 when none runs on the clock).
 */
export function assertConcurrency(deps: Deps, account: Account, runId: string, now: number): void {
  const limit = account.limits.concurrent_runs;
  if (limit === undefined) return;
  const others = deps.store.runs.active(account.id).filter((r) => r.id !== runId);
  if (others.length < limit) return;
  throw apiError('concurrency_limit_exceeded', {
    message: MESSAGES.concurrencyLimited(limit, others.length),
    details: { limit, active: others.length },
    headers: { 'Retry-After': retryAfter(others, now) },
  });
}

/** A tier's capacity (API document section 7: 429 `capacity_exceeded`), or the account's own. */
export function assertCapacity(deps: Deps, account: Account, run: RunRecord, now: number): void {
  const tier = deps.kinds.byName[run.kind]?.hardwareTier(run.request);
  if (!tier) return;
  const capacity =
    account.limits.tier_capacity?.[tier] ??
    deps.catalog.hardware_tiers.find((t) => t.id === tier)?.capacity.concurrent_runs;
  if (capacity === undefined) return;
  const others = deps.store.runs
    .active(account.id)
    .filter((r) => r.id !== run.id && deps.kinds.byName[r.kind]?.hardwareTier(r.request) === tier);
  if (others.length < capacity) return;
  throw apiError('capacity_exceeded', {
    message: MESSAGES.capacityTaken(tier, capacity),
    details: { hardware_tier: tier, capacity, active: others.length },
    headers: { 'Retry-After': retryAfter(others, now) },
  });
}
