/**
 * A run kind (DESIGN.md section 7, "The run engine"): the data and pure functions that make one
 * kind of long-running job. Everything else (queue and phases on the account's clock, outcome
 * plans, cancel, resume, tokens and refunds, logs, files, the archive, events, limits, routes)
 * is the engine's, written once in `runtime/` and `api/runs.ts`. Adding a kind is one folder
 * under `src/kinds/` and one line in `src/kinds/index.ts` (docs/development.md).
 */
import type { RouteConfig, z } from '@hono/zod-openapi';
import type { OutcomeEntry } from '../contract/outcomes.js';
import type { RunRoutes } from '../contract/run-routes.js';
import type { RunKindAddress } from '../contract/run-shapes.js';
import type { ArchiveEntry } from './build-archive.js';
import type { Catalog } from './catalog.js';
import type { FileEntry, RunError, RunRecord, RunRequest, RunState } from './records.js';
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
  /** The kind a scenario's outcome rule that names no `kind` is for (one kind at most). */
  outcomeRulesDefault?: boolean;
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

/**
 * A read-only route on one run beyond the engine's eight (an augmentation's episodes): the engine
 * finds the caller's run of the kind (404 otherwise) and answers what `read` derives from it.
 */
export interface RunRead {
  route: RouteConfig;
  read(run: RunRecord, state: RunState, catalog: Catalog): unknown;
}

/** A run seeded in a fixed state (no attempt on the clock): the state fields a seed may give. */
export interface FixedState {
  status: RunState['status'];
  outcomes?: OutcomeEntry[];
  phase?: string | null;
  progress?: number;
  status_message?: string | null;
  steps?: RunState['episodes'];
  error?: RunError | null;
  result?: Record<string, unknown> | null;
  download?: RunState['download'];
  tokens?: RunState['tokens'];
  service_version?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
  logs?: string[];
  files?: FileEntry[];
}

/** What the engine offers a kind's own seeding (`RegisteredKind.seed`), for one account. */
export interface SeedOps {
  /** The account's virtual now. */
  now: number;
  catalog: Catalog;
  /** A new id of the prefix, from the account's id stream. */
  newId(prefix: string): string;
  /** 400 `parameter_invalid` naming `id` when a run of that id exists. */
  ensureNew(id: string): void;
  /** The outcome plan names only the kind's phases and failure codes. */
  checkPlan(plan: readonly OutcomeEntry[] | undefined): void;
  /**
   * A run put on the clock like a created one, following the seed's `outcomes` (else its
   * `options.emulator.outcomes`) at its `service_version`, keeping its `files` as given.
   */
  start(
    id: string,
    request: RunRequest,
    seed: Pick<FixedState, 'outcomes' | 'service_version' | 'files'>,
  ): RunRecord;
  /** A run that stays in the state given (no attempt), with its logs and files. */
  fix(id: string, request: RunRequest, fixed: FixedState): RunRecord;
  /** A run inserted now in the state the kind built (no attempt). */
  insert(id: string, request: RunRequest, state: RunState): RunRecord;
  /** The run's file listing, kept as given. */
  keepFiles(id: string, files: FileEntry[]): void;
}

/**
 * The control API's seeding route of a kind in its own terms (`POST /_control/accounts/{id}/
 * <collection>`, and scenario files' `accounts[].<collection>`), beside the generic
 * `POST /_control/accounts/{id}/runs` every kind has.
 */
export interface KindSeed<
  Op extends string = string,
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
> {
  /** The route's operation, and the name of the harness method that calls it. */
  operationId: Op;
  summary: string;
  description: string;
  input: I;
  /** The 201 answer. */
  response: O;
  /** The route's error statuses, each with its note (undefined: the standard one). */
  errors: Readonly<Record<number, string | undefined>>;
  seed(input: Record<string, unknown>, ops: SeedOps): RunRecord;
  /** The 201 answer, when it is not the run's body. */
  view?(record: RunRecord): unknown;
}

/** An error code a kind answers that the catalog (`src/errors.ts`) does not list. */
export interface KindError {
  status: number;
  message: string;
}

/** A kind as the engine registers it: its definition, its routes, and what it adds. */
export interface RegisteredKind {
  kind: RunKind;
  routes: RunRoutes;
  reads?: readonly RunRead[];
  // biome-ignore lint/suspicious/noExplicitAny: each kind's seed keeps its own input and answer types
  seed?: KindSeed<string, any, any>;
  errors?: Readonly<Record<string, KindError>>;
}
