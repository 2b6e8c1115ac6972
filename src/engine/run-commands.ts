/** A request's commands on runs (DESIGN.md sections 2 and 7), each a transaction with its event. */

import type { Account } from '../core/records.js';
import type { OutcomeEntry } from './contract/outcomes.js';
import type { Deps } from './deps.js';
import { eventOf, recordEvents, runEventOf } from './event-log.js';
import { assertCapacity, assertConcurrency } from './limits.js';
import type { RunRecord, RunRequest } from './records.js';
import { assertResumable } from './resume.js';
import { createRun, requestCancel, startAttempt } from './run-attempt.js';
import type { RunKind } from './run-kind.js';
import { runSnapshot } from './timeline/event-view.js';
import { worldOf } from './world-view.js';

/** Who asks, and when: the caller's account at the request's fixed virtual now. */
export interface Caller {
  deps: Deps;
  account: Account;
  now: number;
  version: string;
}

/**
 * DESIGN.md section 4 "Outcomes": the request's own plan (`options.emulator.outcomes`), else the
 * first of the loaded scenario's outcome rules that matches the run (its kind, its spec's name,
 * its label; a rule naming no kind is for the kind that registers `outcomeRulesDefault`).
 */
function planFor(deps: Deps, kind: RunKind, request: RunRequest): OutcomeEntry[] | undefined {
  const own = request.options.emulator as { outcomes?: OutcomeEntry[] } | undefined;
  if (own?.outcomes) return own.outcomes;
  const rules = deps.scenarios.loaded.outcome_rules ?? [];
  const fallback = deps.kinds.list.find((r) => r.kind.outcomeRulesDefault)?.kind.name;
  const specName = (request.spec as { name?: string } | undefined)?.name;
  return rules.find(
    (r) =>
      (r.match.kind ?? fallback) === kind.name &&
      (r.match.spec_name === undefined || r.match.spec_name === specName) &&
      (r.match.label === undefined || r.match.label === request.label),
  )?.outcomes;
}

/** A new run, `queued`, with its first attempt charged (402) and its concurrency checked. */
export function createRunCommand(
  caller: Caller,
  kind: RunKind,
  args: { id: string; request: RunRequest },
): RunRecord {
  const { deps, account, now } = caller;
  return deps.store.tx(() => {
    const created = createRun(deps, kind, account, {
      ...args,
      plan: planFor(deps, kind, args.request),
      now,
      serviceVersion: caller.version,
    });
    recordEvents(deps, [runEventOf(created, now, null, 'queued')]);
    assertConcurrency(deps, account, created.id, now);
    assertCapacity(deps, account, created, now);
    return created;
  });
}

/** API document 3.1: a failed or canceled run "executed again from its original request". */
export function resumeRun(caller: Caller, kind: RunKind, found: RunRecord): RunRecord {
  const { deps, account, now } = caller;
  // The state check writes nothing: its 409 needs no transaction. `found` is current: it was
  // read in this synchronous call, after the account was settled.
  assertResumable(found.state);
  return deps.store.tx(() => {
    const before = found.state;
    kind.assertStartable?.(found.request, worldOf(deps, account), found.id);
    const number = (before.run?.attempt ?? 1) + 1;
    const { plan } = before;
    startAttempt(deps, kind, account, found, { number, plan, now, version: caller.version });
    deps.store.runs.saveState(found);
    recordEvents(deps, [runEventOf(found, now, before.status, 'queued', before)]);
    assertConcurrency(deps, account, found.id, now);
    assertCapacity(deps, account, found, now);
    return found;
  });
}

/** `canceling` now, `canceled` a while later (DESIGN.md section 4); 409 once terminal. */
export function cancelRun(caller: Caller, found: RunRecord): RunRecord {
  const { deps, now } = caller;
  return deps.store.tx(() => {
    const left = requestCancel(deps, found, now);
    deps.store.runs.saveState(found);
    if (left === null) return found;
    // A run seeded without an attempt has nothing to derive its event from: it is stored.
    const event = found.state.run
      ? runEventOf(found, now, left, found.state.status)
      : eventOf(found.accountId, now, left, runSnapshot(found, found.state));
    recordEvents(deps, [event]);
    return found;
  });
}
