/** The engine's commands on one run (DESIGN.md sections 4 and 7), in the caller's transaction. */
import { createHmac } from 'node:crypto';
import { toTimestamp } from '../core/clock.js';
import { apiError, MESSAGES } from '../core/errors.js';
import type { Account } from '../core/records.js';
import type { OutcomeEntry } from './contract/outcomes.js';
import type { Deps } from './deps.js';
import type { RunAttempt, RunRecord } from './records.js';
import type { RunKind } from './run-kind.js';
import { CANCEL_MS, outcomeFor } from './run-options.js';
import { logLine } from './timeline/log.js';
import { buildSchedule, firstEventAt } from './timeline/schedule.js';
import { deriveState } from './timeline/state.js';

/** Whether a run's log and listing are stored rows (seeded without an attempt), not derived. */
export function storesOutputs(record: RunRecord): boolean {
  return !record.state.run;
}

/**
 * Starts attempt `attempt` at `now`: its schedule, its token charge (402 `insufficient_tokens`)
 * and a fresh state; a seeded run's stored rows are dropped, a listing of its own stays.
 */
export function startAttempt(
  deps: Deps,
  kind: RunKind,
  account: Account,
  record: RunRecord,
  attempt: { number: number; plan: OutcomeEntry[] | undefined; now: number; version: string },
): void {
  const { now } = attempt;
  const { queueMs, phases, estimate } = kind.plan(record.request);
  if (!deps.store.accounts.charge(account.id, estimate)) {
    const balance = deps.store.accounts.balance(account.id);
    throw apiError('insufficient_tokens', {
      message: MESSAGES.needsTokens(estimate, balance),
      details: { estimate, balance },
    });
  }
  const outcome = outcomeFor(attempt.plan, attempt.number);
  const schedule = buildSchedule(now, queueMs, phases, kind.failurePlan(outcome));
  // Events at the start instant itself (a zero-second queue) are still to apply: the attempt
  // has applied everything strictly before `now`, so the next settle reports them.
  const run: RunAttempt = {
    attempt: attempt.number,
    schedule,
    outcome,
    estimate,
    cancel: null,
    appliedUntil: now - 1,
  };
  const previous = record.state.tokens;
  const given = record.state.given_files === true;
  // A seeded run's rows, if it has any, give way to the attempt's derived log and listing.
  const dropStored = record.state.stored_rows === true;
  record.state = {
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    episodes: { done: 0, total: schedule.totalSteps },
    error: null,
    result: null,
    download: null,
    tokens: { charged: previous.charged + estimate, refunded: previous.refunded },
    service_version: attempt.version,
    started_at: null,
    completed_at: null,
    plan: attempt.plan,
    run,
    ...(given ? { given_files: true } : {}),
  };
  record.nextAt = firstEventAt(schedule);
  if (dropStored) {
    deps.store.runLogs.replace(record.id, []);
    if (!given) deps.store.runFiles.replace(record.id, []);
  }
  deps.store.archives.remove(record.id);
}

/** A new run on the clock as a create makes it; a 402 throws before anything is written. */
export function createRun(
  deps: Deps,
  kind: RunKind,
  account: Account,
  args: {
    id: string;
    request: RunRecord['request'];
    plan: OutcomeEntry[] | undefined;
    now: number;
    serviceVersion: string;
    /** A file listing of its own (control seeding): success keeps it, builds no archive. */
    givenFiles?: boolean;
  },
): RunRecord {
  const record: RunRecord = {
    id: args.id,
    accountId: account.id,
    kind: kind.name,
    createdAt: toTimestamp(args.now),
    request: args.request,
    state: {
      tokens: { charged: 0, refunded: 0 },
      ...(args.givenFiles ? { given_files: true } : {}),
    } as RunRecord['state'],
    nextAt: null,
  };
  // Started before it is written: one insert of the whole row, no update after it.
  startAttempt(deps, kind, account, record, {
    number: 1,
    plan: args.plan,
    now: args.now,
    version: args.serviceVersion,
  });
  deps.store.runs.insert(record);
  return record;
}

/** Cancels at `now` (DESIGN.md section 4); answers the status left, null if already canceling. */
export function requestCancel(deps: Deps, record: RunRecord, now: number): string | null {
  const run = record.state.run;
  const status = deriveState(record.state, now).status;
  if (status === 'canceling') return null;
  if (status === 'succeeded' || status === 'failed' || status === 'canceled') {
    throw apiError('not_cancelable', { message: MESSAGES.notCancelable(status) });
  }
  const cancel = { at: now, doneAt: now + CANCEL_MS };
  // A run seeded as queued or processing has no schedule: it stops where it was seeded.
  if (run) run.cancel = cancel;
  else record.state.cancel = cancel;
  record.nextAt = cancel.doneAt;
  // The stored status is what `?status=` filters, resume checks and concurrency counts read.
  record.state = deriveState(record.state, now);
  // An attempt's log shows its cancel by itself (domain/run-log.ts).
  if (storesOutputs(record))
    deps.store.runLogs.append(record.id, [logLine(now, 'cancel requested')]);
  return status;
}

/** Appends to a stored log; a run without an attempt is marked so that a resume drops its rows. */
export function appendStoredLog(deps: Deps, record: RunRecord, lines: string[]): void {
  if (lines.length === 0) return;
  deps.store.runLogs.append(record.id, lines);
  if (!record.state.run) record.state.stored_rows = true;
}

/** A signed download token: deterministic per seed, run and attempt (DESIGN.md section 3). */
export function signedToken(deps: Deps, runId: string, attempt: number): string {
  return createHmac('sha256', deps.config.seed)
    .update(`${runId}:${attempt}`)
    .digest('hex')
    .slice(0, 40);
}
