/**
 * The commands a request makes on runs, each in one transaction (DESIGN.md sections 2 and 7):
 * create, resume, cancel. Each records its transition's event at the request's instant, like
 * the clock's, and checks the account's concurrency once the run is written (a 429 rolls it
 * back). Handlers parse, call one of these, and shape the answer.
 */
import type { OutcomeEntry } from '../domain/evaluation-plan.js';
import { evaluationSnapshot } from '../domain/event-view.js';
import type { Account, EvaluationRecord } from '../domain/records.js';
import { assertResumable } from '../domain/resume.js';
import type { RunKind } from '../domain/run-kind.js';
import { notFound } from '../errors.js';
import type { Deps } from './deps.js';
import { eventOf, recordEvents } from './event-log.js';
import { assertConcurrency } from './limits.js';
import { createRun, requestCancel, startAttempt } from './run-attempt.js';

/** Who asks, and when: the caller's account at the request's fixed virtual now. */
export interface Caller {
  deps: Deps;
  account: Account;
  now: number;
  version: string;
}

/** The caller's run; another account's id answers 404 like an unknown one (section 4.1). */
export function findRun(caller: Caller, kind: RunKind, runId: string): EvaluationRecord {
  const found = caller.deps.store.evaluations.get(caller.account.id, runId);
  if (!found) throw notFound(kind.name, runId, 'run_id');
  return found;
}

/** A new run, `queued`, with its first attempt charged (402) and its concurrency checked. */
export function createRunCommand(
  caller: Caller,
  kind: RunKind,
  args: { id: string; request: EvaluationRecord['request']; plan: OutcomeEntry[] | undefined },
): EvaluationRecord {
  const { deps, account, now } = caller;
  return deps.store.tx(() => {
    const created = createRun(deps, kind, account, {
      ...args,
      now,
      serviceVersion: caller.version,
    });
    recordEvents(deps, [
      eventOf(created.accountId, now, null, evaluationSnapshot(created, created.state)),
    ]);
    assertConcurrency(deps, account, created.id, now);
    return created;
  });
}

/**
 * API document section 3.1: a failed or canceled run back to `queued`, "executed again from its
 * original request", as a new attempt taking the next entry of its outcome plan.
 */
export function resumeRun(caller: Caller, kind: RunKind, runId: string): EvaluationRecord {
  const { deps, account, now } = caller;
  return deps.store.tx(() => {
    const found = findRun(caller, kind, runId);
    assertResumable(found.state);
    const left = found.state.status;
    const number = (found.state.run?.attempt ?? 1) + 1;
    startAttempt(deps, kind, account, found, {
      number,
      plan: found.state.plan,
      now,
      version: caller.version,
    });
    deps.store.evaluations.saveState(found);
    recordEvents(deps, [
      eventOf(found.accountId, now, left, evaluationSnapshot(found, found.state)),
    ]);
    assertConcurrency(deps, account, found.id, now);
    return found;
  });
}

/** `canceling` now, `canceled` a while later (DESIGN.md section 4); 409 once terminal. */
export function cancelRun(caller: Caller, kind: RunKind, runId: string): EvaluationRecord {
  const { deps, now } = caller;
  return deps.store.tx(() => {
    const found = findRun(caller, kind, runId);
    const left = requestCancel(deps, found, now);
    deps.store.evaluations.saveState(found);
    if (left !== null)
      recordEvents(deps, [
        eventOf(found.accountId, now, left, evaluationSnapshot(found, found.state)),
      ]);
    return found;
  });
}
