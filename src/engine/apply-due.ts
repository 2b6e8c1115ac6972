/** Applies a run's due events once each, in time order, as its clock passes them (DESIGN.md 4). */

import { toTimestamp } from '../core/clock.js';
import type { Account } from '../core/records.js';
import type { Deps } from './deps.js';
import { type EventDraft, eventOf, runEventOf } from './event-log.js';
import { owesArchive } from './pending-archives.js';
import type { RunRecord } from './records.js';
import { appendStoredLog } from './run-attempt.js';
import type { RunKind } from './run-kind.js';
import { endKey, type ReadyEnd } from './settle-ends.js';
import { type EndOutputs, endOutputs } from './settle-jobs.js';
import { runSnapshot } from './timeline/event-view.js';
import { logLine } from './timeline/log.js';
import { phaseAt, progressAt } from './timeline/schedule.js';
import { deriveState } from './timeline/state.js';
import { cutShort, nextDue, pendingEvents } from './timeline/timeline.js';

export interface Transition {
  at: string;
  resource: string;
  from: string;
  to: string;
  phase: string | null;
}

/** Where applying a run writes what it applied: the advance's answer and the event log. */
export interface Applied {
  transitions: Transition[];
  events: EventDraft[];
}

/**
 * Applies the run's events due in (appliedUntil, upTo], pushing transitions and event drafts; the
 * outputs of its end come from `ready` when they were computed ahead for this very end.
 */
export function applyDue(
  deps: Deps,
  kind: RunKind,
  account: Account,
  record: RunRecord,
  upTo: number,
  out: Applied,
  ready?: ReadyEnd,
): void {
  const run = record.state.run;
  if (!run) {
    applySeededCancel(deps, record, upTo, out);
    return;
  }
  const { schedule } = run;
  const push = (at: number, from: string, to: string, phase: string | null) => {
    out.transitions.push({ at: toTimestamp(at), resource: record.id, from, to, phase });
    // Phase changes inside `processing` are not events; status changes are, once each.
    if (from !== to) out.events.push(runEventOf(record, at, from, to));
  };
  // What the run was before the next event: several events can share an instant (zero-second
  // phases), and only the first phase leaves `queued`.
  let status = run.appliedUntil < schedule.queueEndMs ? 'queued' : 'processing';

  // Steps only add log lines, and an attempt's log is derived when read: transitions only.
  for (const event of pendingEvents(run, false)) {
    if (event.at <= run.appliedUntil || event.at > upTo) continue;
    if (event.kind === 'phase') {
      push(event.at, status, 'processing', event.phase);
      status = 'processing';
    } else if (event.kind !== 'step') {
      const ahead = ready?.key === endKey(record, event.at) ? ready.outputs : undefined;
      finish(deps, kind, account, record, event.at, ahead);
      push(event.at, status, event.outcome, event.phase);
    }
  }
  const cancel = cutShort(run);
  if (cancel && cancel.doneAt <= upTo && cancel.doneAt > run.appliedUntil) {
    settleTokens(deps, account, record, progressAt(schedule, cancel.at), cancel.doneAt);
    record.state.status_message = 'Canceled';
    push(cancel.doneAt, 'canceling', 'canceled', phaseAt(schedule, cancel.at));
  }
  run.appliedUntil = upTo;
  record.nextAt = nextDue(run, upTo);
  // Keep the stored status current: listing by status and counting active runs read it.
  record.state = deriveState(record.state, upTo, kind.stepNoun);
}

/** Completes the cancel of a seeded run (no attempt, nothing charged, so nothing refunded). */
function applySeededCancel(deps: Deps, record: RunRecord, upTo: number, out: Applied) {
  const cancel = record.state.cancel;
  if (!cancel || cancel.doneAt > upTo) return;
  if (record.state.status === 'canceling') {
    // A seeded run has no attempt to derive a log from: its lines are stored.
    appendStoredLog(deps, record, [logLine(cancel.doneAt, 'run canceled')]);
    out.transitions.push({
      at: toTimestamp(cancel.doneAt),
      resource: record.id,
      from: 'canceling',
      to: 'canceled',
      phase: record.state.phase,
    });
    const shown = runSnapshot(record, deriveState(record.state, cancel.doneAt));
    out.events.push(eventOf(record.accountId, cancel.doneAt, 'canceling', shown));
  }
  record.state = deriveState(record.state, upTo);
  record.nextAt = null;
}

/** Refunds the part of the estimate not consumed by `progress`, and records the completion. */
function settleTokens(
  deps: Deps,
  account: Account,
  record: RunRecord,
  progress: number,
  at: number,
) {
  const run = record.state.run!;
  const refund = run.estimate - Math.round(run.estimate * progress);
  deps.store.accounts.adjustBalance(account.id, refund);
  const { charged, refunded } = record.state.tokens;
  record.state.tokens = { charged, refunded: refunded + refund };
  record.state.completed_at = toTimestamp(at);
}

/** The end of an attempt: the kind's failure, or its success with the archive owed. */
function finish(
  deps: Deps,
  kind: RunKind,
  account: Account,
  record: RunRecord,
  at: number,
  ahead: EndOutputs | undefined,
): void {
  const run = record.state.run!;
  const job = { kind: record.kind, id: record.id, request: record.request, run };
  const { error, result } = ahead ?? endOutputs(kind, job, deps.catalog);
  record.state.result = result;
  if (error) {
    record.state.error = error;
    record.state.status_message = error.message;
    settleTokens(deps, account, record, progressAt(run.schedule, at), at);
    return;
  }
  record.state.status_message = 'Succeeded';
  settleTokens(deps, account, record, 1, at);
  // A run seeded with a file listing of its own keeps it, and has no archive to serve.
  if (!record.state.given_files) owesArchive(deps, record);
}
