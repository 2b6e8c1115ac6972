/**
 * Evaluations on the virtual clock (DESIGN.md section 4): an attempt starts with its whole
 * schedule; its events are applied once each, in time order, when the account's clock passes
 * them; the view of a run is derived from the schedule and "now".
 */
import { createHmac } from 'node:crypto';
import { buildArchive } from '../domain/build-archive.js';
import {
  archiveEntries,
  type Episode,
  episodeAt,
  evaluatorIds,
  manifestFor,
  resultOf,
} from '../domain/evaluation-output.js';
import {
  CANCEL_MS,
  DEFAULT_SUCCESS_RATE,
  EvaluationOptions,
  failurePlan,
  type OutcomeEntry,
  outcomeFor,
  phasePlans,
  tokenEstimate,
} from '../domain/evaluation-plan.js';
import type { Account, EvaluationRecord, EvaluationState, RunAttempt } from '../domain/records.js';
import {
  buildSchedule,
  endPhase,
  phaseAt,
  progressAt,
  type ScheduleEvent,
  scheduleEvents,
  stepsAt,
} from '../domain/run-schedule.js';
import { apiError } from '../errors.js';
import type { Deps } from '../runtime/deps.js';
import { toTimestamp } from './clock.js';
import { type EventDraft, evaluationEvent } from './event-log.js';

export interface Transition {
  at: string;
  resource: string;
  from: string;
  to: string;
  phase: string | null;
}

const ERROR_MESSAGES: Record<string, string> = {
  spec_invalid: 'The SDK spec is invalid.',
  policy_failed: 'The policy failed during an episode.',
  verification_failed: 'The SDK verification command failed on the run.',
  interrupted: 'The run was interrupted before it finished.',
};

const line = (at: number, text: string) => `${toTimestamp(at)} ${text}`;

function successRate(outcome: OutcomeEntry): number {
  return 'succeed' in outcome
    ? (outcome.succeed.success_rate ?? DEFAULT_SUCCESS_RATE)
    : DEFAULT_SUCCESS_RATE;
}

/**
 * Starts attempt `attempt` of a run at `now`: computes its schedule, charges its token estimate
 * (402 `insufficient_tokens` when the balance cannot cover it) and resets the run's state.
 */
export function startAttempt(
  deps: Deps,
  account: Account,
  record: EvaluationRecord,
  attempt: number,
  plan: OutcomeEntry[] | undefined,
  now: number,
  serviceVersion: string,
): void {
  const options = EvaluationOptions.parse(record.request.options);
  const estimate = tokenEstimate(options);
  const balance = deps.store.accounts.balance(account.id);
  if (balance < estimate) {
    throw apiError('insufficient_tokens', {
      message: `This run needs an estimated ${estimate} tokens; the account has ${balance}.`,
      details: { estimate, balance },
    });
  }
  deps.store.accounts.adjustBalance(account.id, -estimate);
  const outcome = outcomeFor(plan, attempt);
  const { queueMs, phases } = phasePlans(options);
  const schedule = buildSchedule(now, queueMs, phases, failurePlan(outcome));
  // Events at the start instant itself (a zero-second queue) are still to apply: the attempt
  // has applied everything strictly before `now`, so the next settle reports them.
  const run: RunAttempt = {
    attempt,
    schedule,
    outcome,
    estimate,
    cancel: null,
    appliedUntil: now - 1,
  };
  const previous = record.state.tokens;
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
    service_version: serviceVersion,
    started_at: null,
    completed_at: null,
    plan,
    run,
  };
  record.nextAt = scheduleEvents(schedule)[0]?.at ?? now;
  deps.store.runLogs.replace(record.id, [
    line(
      now,
      `attempt ${attempt} queued: ${schedule.totalSteps} episodes, spec ${record.request.spec.name}`,
    ),
  ]);
  deps.store.runFiles.replace(record.id, []);
  deps.store.archives.remove(record.id);
}

/**
 * A new evaluation on the clock, as `POST /v1/evaluations` creates it: inserted, then its first
 * attempt started (a 402 throws, and the caller's transaction leaves nothing behind).
 */
export function createEvaluation(
  deps: Deps,
  account: Account,
  args: {
    id: string;
    request: EvaluationRecord['request'];
    plan: OutcomeEntry[] | undefined;
    now: number;
    serviceVersion: string;
  },
): EvaluationRecord {
  const record: EvaluationRecord = {
    id: args.id,
    accountId: account.id,
    createdAt: toTimestamp(args.now),
    request: args.request,
    state: { tokens: { charged: 0, refunded: 0 } } as EvaluationRecord['state'],
    nextAt: null,
  };
  deps.store.evaluations.insert(record);
  startAttempt(deps, account, record, 1, args.plan, args.now, args.serviceVersion);
  deps.store.evaluations.saveState(record);
  return record;
}

/**
 * Requests cancellation at `now` (DESIGN.md section 4: `canceling` for a while, then
 * `canceled`). Answers the status the run left, or null when it was already canceling.
 */
export function requestCancel(deps: Deps, record: EvaluationRecord, now: number): string | null {
  const run = record.state.run;
  const status = deriveState(record.state, now).status;
  if (status === 'canceling') return null;
  if (status === 'succeeded' || status === 'failed' || status === 'canceled') {
    throw apiError('not_cancelable', { message: `The run is ${status} and cannot be canceled.` });
  }
  const cancel = { at: now, doneAt: now + CANCEL_MS };
  // A run seeded as queued or processing has no schedule: it stops where it was seeded.
  if (run) run.cancel = cancel;
  else record.state.cancel = cancel;
  record.nextAt = cancel.doneAt;
  // The stored status is what `?status=` filters, resume checks and concurrency counts read.
  record.state = deriveState(record.state, now);
  deps.store.runLogs.append(record.id, [line(now, 'cancel requested')]);
  return status;
}

/** The events of the attempt that are still to happen, cut short by a cancel. */
function pendingEvents(run: RunAttempt): ScheduleEvent[] {
  const events = scheduleEvents(run.schedule);
  if (!run.cancel || run.cancel.at >= run.schedule.endMs) return events;
  return events.filter((e) => e.at <= run.cancel!.at && e.kind !== 'end');
}

/** The instants of the run's events still to apply up to `upTo` (runtime/sliced-settle.ts). */
export function pendingInstants(record: EvaluationRecord, upTo: number): number[] {
  const run = record.state.run;
  if (!run) return record.nextAt !== null && record.nextAt <= upTo ? [record.nextAt] : [];
  const after = run.appliedUntil;
  const at = pendingEvents(run)
    .filter((e) => e.at > after && e.at <= upTo)
    .map((e) => e.at);
  const cancel = run.cancel;
  if (cancel && cancel.at < run.schedule.endMs && cancel.doneAt > after && cancel.doneAt <= upTo)
    at.push(cancel.doneAt);
  return at;
}

/**
 * Applies every event of the run due in (appliedUntil, upTo], in order, and pushes the status
 * and phase changes onto `transitions`, and an event draft for each status change onto
 * `events`. Terminal events settle tokens and, on success, build the archive.
 */
export function applyDue(
  deps: Deps,
  account: Account,
  record: EvaluationRecord,
  upTo: number,
  transitions: Transition[],
  events: EventDraft[],
): void {
  const run = record.state.run;
  if (!run) {
    applySeededCancel(deps, record, upTo, transitions, events);
    return;
  }
  const { schedule } = run;
  const { hash: manifestHash } = manifestFor(record.request.spec);
  const evaluators = evaluatorIds(record.request.spec);
  const rate = successRate(run.outcome);
  const lines: string[] = [];
  const push = (at: number, from: string, to: string, phase: string | null) => {
    transitions.push({ at: toTimestamp(at), resource: record.id, from, to, phase });
    // Phase changes inside `processing` are not events; status changes are, once each.
    if (from !== to) events.push(evaluationEvent(record, at, from, shownAt(record, at, to, phase)));
  };
  // What the run was before the next event: several events can share an instant (zero-second
  // phases), and only the first phase leaves `queued`.
  let status = run.appliedUntil < schedule.queueEndMs ? 'queued' : 'processing';

  for (const event of pendingEvents(run)) {
    if (event.at <= run.appliedUntil || event.at > upTo) continue;
    if (event.kind === 'phase') {
      lines.push(line(event.at, `phase ${event.phase} started`));
      push(event.at, status, 'processing', event.phase);
      status = 'processing';
    } else if (event.kind === 'step') {
      const ep = episodeAt(manifestHash, stepIndex(schedule, event), rate, evaluators);
      lines.push(
        line(
          event.at,
          `episode ${ep.index}/${schedule.totalSteps} ${ep.success ? 'succeeded' : 'failed'} return=${ep.return}`,
        ),
      );
    } else {
      deps.store.runLogs.append(record.id, lines.splice(0));
      finish(deps, account, record, event.at, manifestHash, evaluators, rate);
      push(event.at, status, event.outcome, event.phase);
    }
  }
  const cancel = run.cancel;
  if (
    cancel &&
    cancel.at < schedule.endMs &&
    cancel.doneAt <= upTo &&
    cancel.doneAt > run.appliedUntil
  ) {
    lines.push(line(cancel.doneAt, 'run canceled'));
    deps.store.runLogs.append(record.id, lines.splice(0));
    settleTokens(deps, account, record, progressAt(schedule, cancel.at), cancel.doneAt);
    record.state.status_message = 'Canceled';
    push(cancel.doneAt, 'canceling', 'canceled', phaseAt(schedule, cancel.at));
  }
  deps.store.runLogs.append(record.id, lines);
  run.appliedUntil = upTo;
  record.nextAt = nextDue(run, upTo);
  // Keep the stored status current: listing by status and counting active runs read it.
  record.state = deriveState(record.state, upTo);
}

/**
 * The run as the API shows it at `at`, right after a transition to `to` was applied there (and
 * before anything later): derived from the state stored so far. The end of an attempt shows
 * once applied, so the end's own instant counts as applied. A run whose every phase takes zero
 * seconds shows `queued` until its end; its one `processing` instant is shown as such.
 */
function shownAt(
  record: EvaluationRecord,
  at: number,
  to: string,
  phase: string | null,
): EvaluationState {
  const run = record.state.run;
  const ended = to !== 'processing' && to !== 'canceling';
  const source =
    ended && run && run.appliedUntil < at
      ? { ...record.state, run: { ...run, appliedUntil: at } }
      : record.state;
  const state = deriveState(source, at);
  if (state.status === to) return state;
  return {
    ...state,
    status: to as EvaluationState['status'],
    phase: phase as EvaluationState['phase'],
    status_message: `Phase ${phase}`,
  };
}

/** Completes the cancel of a seeded run (no attempt, nothing charged, so nothing refunded). */
function applySeededCancel(
  deps: Deps,
  record: EvaluationRecord,
  upTo: number,
  transitions: Transition[],
  events: EventDraft[],
): void {
  const cancel = record.state.cancel;
  if (!cancel || cancel.doneAt > upTo) return;
  if (record.state.status === 'canceling') {
    deps.store.runLogs.append(record.id, [line(cancel.doneAt, 'run canceled')]);
    transitions.push({
      at: toTimestamp(cancel.doneAt),
      resource: record.id,
      from: 'canceling',
      to: 'canceled',
      phase: record.state.phase,
    });
    events.push(
      evaluationEvent(record, cancel.doneAt, 'canceling', deriveState(record.state, cancel.doneAt)),
    );
  }
  record.state = deriveState(record.state, upTo);
  record.nextAt = null;
}

function stepIndex(
  schedule: RunAttempt['schedule'],
  event: Extract<ScheduleEvent, { kind: 'step' }>,
): number {
  let before = 0;
  for (const s of schedule.segments) {
    if (s.name === event.phase) break;
    before += s.steps;
  }
  return before + event.step;
}

function nextDue(run: RunAttempt, after: number): number | null {
  const next = pendingEvents(run).find((e) => e.at > after)?.at;
  if (next !== undefined) return next;
  if (run.cancel && run.cancel.at < run.schedule.endMs && run.cancel.doneAt > after)
    return run.cancel.doneAt;
  return null;
}

/** Refunds the part of the estimate not consumed by `progress`, and records the completion. */
function settleTokens(
  deps: Deps,
  account: Account,
  record: EvaluationRecord,
  progress: number,
  at: number,
) {
  const run = record.state.run!;
  const refund = run.estimate - Math.round(run.estimate * progress);
  deps.store.accounts.adjustBalance(account.id, refund);
  record.state.tokens = {
    charged: record.state.tokens.charged,
    refunded: record.state.tokens.refunded + refund,
  };
  record.state.completed_at = toTimestamp(at);
}

function finish(
  deps: Deps,
  account: Account,
  record: EvaluationRecord,
  at: number,
  manifestHash: string,
  evaluators: string[],
  rate: number,
): void {
  const run = record.state.run!;
  const { outcome, schedule } = run;
  const episodes: Episode[] = [];
  for (let i = 1; i <= schedule.stepsAtEnd; i++)
    episodes.push(episodeAt(manifestHash, i, rate, evaluators));
  if ('fail' in outcome) {
    const code = outcome.fail;
    const failedPhase = endPhase(schedule);
    record.state.error = {
      code,
      message: outcome.message ?? ERROR_MESSAGES[code]!,
      resumable: code !== 'spec_invalid',
      param: code === 'spec_invalid' ? (outcome.param ?? 'spec.name') : (outcome.param ?? null),
      details:
        code === 'policy_failed'
          ? { location: `episodes/${String(schedule.stepsAtEnd + 1).padStart(4, '0')}.json` }
          : { service_code: code },
    };
    record.state.result =
      code === 'verification_failed' ? resultOf(manifestHash, episodes, evaluators, false) : null;
    record.state.status_message = record.state.error.message;
    deps.store.runLogs.append(record.id, [
      line(at, `run failed in ${failedPhase}: ${code}: ${record.state.error.message}`),
    ]);
    settleTokens(deps, account, record, progressAt(schedule, at), at);
    return;
  }
  const result = resultOf(manifestHash, episodes, evaluators, true);
  const rateMetric = result.metrics[0]!;
  deps.store.runLogs.append(record.id, [
    line(
      at,
      `run succeeded: success_rate=${rateMetric.value} (${episodes.filter((e) => e.success).length}/${episodes.length})`,
    ),
  ]);
  const logs = deps.store.runLogs.tail(record.id, Number.MAX_SAFE_INTEGER);
  const archive = buildArchive(
    record.id,
    archiveEntries(manifestFor(record.request.spec).manifest, result, episodes, logs),
    at,
  );
  deps.store.archives.put(record.id, archive.bytes, archive.sha256);
  deps.store.runFiles.replace(record.id, archive.files);
  record.state.result = result;
  record.state.status_message = 'Succeeded';
  record.state.download = {
    url: '',
    requires_auth: account.downloadMode !== 'signed',
    expires_at: account.downloadMode === 'signed' ? toTimestamp(at + 3_600_000) : null,
    filename: `${record.id}.tar.gz`,
    bytes: archive.bytes.length,
    sha256: archive.sha256,
  };
  if (account.downloadMode === 'signed')
    record.state.download_token = signedToken(deps, record.id, run.attempt);
  settleTokens(deps, account, record, 1, at);
}

/** A signed download token: deterministic per seed, run and attempt (DESIGN.md section 3). */
export function signedToken(deps: Deps, runId: string, attempt: number): string {
  return createHmac('sha256', deps.config.seed)
    .update(`${runId}:${attempt}`)
    .digest('hex')
    .slice(0, 40);
}

/**
 * The run's state at `now`: status, phase, progress, episodes and status message derived from
 * the schedule; everything else as stored. A seeded run without an attempt is returned as is.
 */
export function deriveState(state: EvaluationState, now: number): EvaluationState {
  const run = state.run;
  if (!run) return deriveSeeded(state, now);
  const { schedule, cancel } = run;
  // The end is shown once it is applied (its result, error and tokens are stored then): an
  // attempt that ends at the instant it starts reads as just before its end until it settles.
  const cutShort = cancel !== null && cancel.at < schedule.endMs;
  if (!cutShort && now >= schedule.endMs && run.appliedUntil < schedule.endMs)
    now = schedule.endMs - 1;
  const canceled = cutShort && now >= cancel.at;
  const t = canceled ? cancel.at : now;
  const episodes = { done: stepsAt(schedule, t), total: schedule.totalSteps };
  const phase = phaseAt(schedule, Math.min(t, schedule.endMs - 1)) as EvaluationState['phase'];
  const progress = progressAt(schedule, t);
  const started_at = t >= schedule.queueEndMs ? toTimestamp(schedule.queueEndMs) : null;
  state = { ...state, started_at };
  if (canceled) {
    const done = now >= cancel.doneAt;
    return {
      ...state,
      status: done ? 'canceled' : 'canceling',
      phase,
      progress,
      episodes,
      status_message: done ? 'Canceled' : 'Canceling',
    };
  }
  if (now < schedule.queueEndMs)
    return {
      ...state,
      status: 'queued',
      phase: null,
      progress: 0,
      episodes,
      status_message: 'Queued',
    };
  if (now >= schedule.endMs) {
    const status = schedule.failed ? 'failed' : 'succeeded';
    const failedIn = schedule.failed ? (endPhase(schedule) as EvaluationState['phase']) : null;
    return { ...state, status, phase: failedIn, progress, episodes };
  }
  const message =
    phase === 'running'
      ? `Running episode ${Math.min(episodes.done + 1, episodes.total)} of ${episodes.total}`
      : `Phase ${phase}`;
  return {
    ...state,
    status: 'processing',
    phase,
    progress,
    episodes,
    status_message: message,
  };
}

/** A seeded run stays as seeded, except for a cancel: `canceling`, then `canceled`. */
function deriveSeeded(state: EvaluationState, now: number): EvaluationState {
  const cancel = state.cancel;
  if (!cancel || now < cancel.at || state.status === 'canceled') return state;
  if (now < cancel.doneAt) return { ...state, status: 'canceling', status_message: 'Canceling' };
  return {
    ...state,
    status: 'canceled',
    status_message: 'Canceled',
    completed_at: toTimestamp(cancel.doneAt),
  };
}
