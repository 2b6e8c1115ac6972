/**
 * A run kind (DESIGN.md section 7, "The run engine"): the data and pure functions that make one
 * kind of long-running job. Everything else (queue and phases on the account's clock, outcome
 * plans, cancel, resume, tokens and refunds, logs, files, the archive, events) is the engine's,
 * written once in `runtime/`. Adding a kind is one folder under `src/kinds/` and one line in
 * `src/kinds/index.ts`.
 */
import type { OutcomeEntry } from '../contract/outcomes.js';
import type { ArchiveEntry } from './build-archive.js';
import type { EvaluationRequest, EvaluationState } from './records.js';
import type { FailurePlan, PhasePlan, Schedule } from './run-schedule.js';

/** What a request plans for each of its attempts: its timeline and what it is charged. */
export interface AttemptPlan {
  queueMs: number;
  phases: PhasePlan[];
  /** Tokens charged when the attempt starts (DESIGN.md section 4 "Tokens"). */
  estimate: number;
}

/** How an attempt that failed shows: its `error`, its `result` (if any) and its log line. */
export interface FailureOutputs {
  error: NonNullable<EvaluationState['error']>;
  result: EvaluationState['result'];
}

export interface RunKind<Ctx = unknown> {
  /** The `object` of its bodies and the first part of its event types. */
  name: string;
  /** What one step of the stepped phase is called in logs and status messages. */
  stepNoun: string;
  /** The attempt's timeline and token estimate; throws 400 for options it cannot run. */
  plan(request: EvaluationRequest): AttemptPlan;
  /** Where an outcome's failure strikes (DESIGN.md section 4 "Failure codes"). */
  failurePlan(outcome: OutcomeEntry): FailurePlan | undefined;
  /** What the attempt's pure outputs are derived from, computed once per application. */
  context(request: EvaluationRequest, outcome: OutcomeEntry): Ctx;
  /** The first log line of an attempt. */
  queuedLine(request: EvaluationRequest, attempt: number, totalSteps: number): string;
  /** The log line of step `index` (1-based) of `total`. */
  stepLine(ctx: Ctx, index: number, total: number): string;
  /** A failed attempt: its error and result. */
  failure(
    ctx: Ctx,
    outcome: Extract<OutcomeEntry, { fail: unknown }>,
    schedule: Schedule,
  ): FailureOutputs;
  /** A succeeded attempt's `result` and its closing log line. */
  success(
    ctx: Ctx,
    steps: number,
  ): { result: NonNullable<EvaluationState['result']>; line: string };
  /** The files of the archive `<id>/`, given the result and the attempt's whole log. */
  archive(
    ctx: Ctx,
    result: NonNullable<EvaluationState['result']>,
    steps: number,
    logs: string[],
  ): ArchiveEntry[];
}
