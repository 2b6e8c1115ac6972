/**
 * A run kind (DESIGN.md section 7, "The run engine"): the data and pure functions that make one
 * kind of long-running job. Everything else (queue and phases on the account's clock, outcome
 * plans, cancel, resume, tokens and refunds, logs, files, the archive, events, limits, routes)
 * is the engine's, written once in `runtime/` and `api/runs.ts`. Adding a kind is one folder
 * under `src/kinds/`, its schemas in `src/contract/`, and one line in `src/kinds/index.ts`.
 */
import type { OutcomeEntry } from '../contract/outcomes.js';
import type { RunKindAddress } from '../contract/run-kinds.js';
import type { RunRoutes } from '../contract/run-shapes.js';
import type { ArchiveEntry } from './build-archive.js';
import type { Catalog } from './catalog.js';
import type { RunError, RunRecord, RunRequest, RunState } from './records.js';
import type { FailurePlan, PhasePlan, Schedule } from './run-schedule.js';

/** What a request plans for each of its attempts: its timeline and what it is charged. */
export interface AttemptPlan {
  queueMs: number;
  phases: PhasePlan[];
  /** Tokens charged when the attempt starts (DESIGN.md section 4 "Tokens"). */
  estimate: number;
}

/** How an attempt that failed shows: its `error` and its `result` (if any). */
export interface FailureOutputs {
  error: RunError;
  result: RunState['result'];
}

/** A policy a run may name: the catalog's, or one a succeeded training or RL run produced. */
export interface PolicyEntry {
  id: string;
  name: string;
  robot: string;
  created_at: string;
  /** The run that produced it; null for the catalog's own. */
  source_run: string | null;
}

/**
 * What a create request is checked against besides its schema: the catalog and the caller's
 * own resources, as of the request's now. Built by the runtime from the store; read-only.
 */
export interface World {
  catalog: Catalog;
  /** A policy of the catalog or of the account; undefined when it has none of that id. */
  policy(id: string): PolicyEntry | undefined;
  /** A scenario the account may run (built-in or its own); undefined otherwise. */
  scenario(id: string): { id: string; task: string; robot: string } | undefined;
  /** Runs of this kind of the account that are queued, processing or canceling. */
  activeRuns(kind: string): RunRecord[];
}

export type { RunKindAddress };

export interface RunKind<Req extends RunRequest = RunRequest, Ctx = unknown>
  extends RunKindAddress {
  /** What one step of the stepped phase is called in logs and status messages. */
  stepNoun: string;
  /** Its phases, in order (an outcome's `at` names one). */
  phases: readonly string[];
  /** The failure codes an outcome plan may name, and which of them a resume can retry. */
  failureCodes: readonly string[];
  /**
   * The stored request of a create body its schema has validated: checks it against the world
   * (400 `parameter_invalid` naming the field, `camera_not_found`, a kind's own 409).
   */
  prepare(body: Record<string, unknown>, world: World): Req;
  /**
   * A conflict a new attempt would cause with the account's other runs (a training run's one
   * run per policy), checked when a resume starts one; `prepare` checks it on create.
   */
  assertStartable?(request: Req, world: World, runId: string): void;
  /** The hardware tier the run occupies (capacity, API document section 7); null for none. */
  hardwareTier(request: Req): string | null;
  /** The attempt's timeline and token estimate; throws 400 for options it cannot run. */
  plan(request: Req): AttemptPlan;
  /** Where an outcome's failure strikes (DESIGN.md section 4 "Failure codes"). */
  failurePlan(outcome: OutcomeEntry): FailurePlan | undefined;
  /**
   * What the attempt's pure outputs are derived from, computed once per application; the
   * catalog is the emulator's (what `prepare` checked the request against).
   */
  context(request: Req, outcome: OutcomeEntry, runId: string, catalog: Catalog): Ctx;
  /** The first log line of an attempt. */
  queuedLine(request: Req, attempt: number, totalSteps: number): string;
  /** The log line of step `index` (1-based) of `total`. */
  stepLine(ctx: Ctx, index: number, total: number): string;
  /** A failed attempt: its error and result. */
  failure(
    ctx: Ctx,
    outcome: Extract<OutcomeEntry, { fail: unknown }>,
    schedule: Schedule,
  ): FailureOutputs;
  /** A succeeded attempt's `result` and its closing log line. */
  success(ctx: Ctx, steps: number): { result: Record<string, unknown>; line: string };
  /** The files of the archive `<id>/`, given the result and the attempt's whole log. */
  archive(ctx: Ctx, result: Record<string, unknown>, steps: number, logs: string[]): ArchiveEntry[];
  /**
   * The kind's own fields of its body, between the shared ones (DESIGN.md section 7: "the shape
   * of an Evaluation where it applies"): its request fields and its step counter.
   */
  fields(record: RunRecord<Req>, state: RunState): Record<string, unknown>;
}

/** A kind as the engine registers it: its definition and its routes. */
export interface RegisteredKind {
  kind: RunKind;
  routes: RunRoutes;
}
