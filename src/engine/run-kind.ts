/**
 * A run kind (DESIGN.md section 7, "The run engine"): the data and pure functions of one kind of
 * job. The engine in `runtime/` does the rest: clock, plans, cancel, resume, tokens, files, events.
 */
import type { z } from '@hono/zod-openapi';
import type { ArchiveEntry } from '../core/archive.js';
import type { Catalog } from '../core/catalog.js';
import type { FileEntry } from '../core/contract.js';
import type { OutcomeEntry } from './contract/outcomes.js';
import type { RunParams, RunRoute, RunRoutes } from './contract/run-routes.js';
import type { RunError, RunKindAddress } from './contract/run-shapes.js';
import type { RunSeedFields } from './contract/seed-input.js';
import type { RunRecord, RunRequest, RunState } from './records.js';
import type { FailurePlan, PhasePlan, Schedule } from './timeline/schedule.js';

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

/** A policy a run may name: the catalog's, or one a succeeded run produced (`source_run`). */
export interface PolicyEntry {
  id: string;
  name: string;
  robot: string;
  created_at: string;
  source_run: string | null;
}

/** What a create request is checked against besides its schema, as of its now; read-only. */
export interface World {
  catalog: Catalog;
  /** A policy of the catalog or of the account; undefined when it has none of that id. */
  policy(id: string): PolicyEntry | undefined;
  /** A scenario the account may run (built-in or its own); undefined otherwise. */
  scenario(id: string): { id: string; task: string; robot: string } | undefined;
  /** Runs of this kind of the account that are queued, processing or canceling. */
  activeRuns(kind: string): RunRecord[];
}

/**
 * A kind as the engine sees it; a kind states it with `defineKind` (define-kind.ts), which derives
 * the timeline's and the failure codes' parts from its plan.
 */
export interface RunKind<
  Req extends RunRequest = RunRequest,
  Ctx = unknown,
  Res extends Record<string, unknown> = Record<string, unknown>,
> extends RunKindAddress {
  /** The kind a scenario's outcome rule that names no `kind` is for (one kind at most). */
  outcomeRulesDefault?: boolean;
  /** What one step of the stepped phase is called in logs and status messages. */
  stepNoun: string;
  /** Its phases, in order (an outcome's `at` names one). */
  phases: readonly string[];
  /** The failure codes an outcome plan may name, and which of them a resume can retry. */
  failureCodes: readonly string[];
  /** The stored request of a validated create body, checked against the world (400, 409). */
  prepare(body: Record<string, unknown>, world: World): Req;
  /** A conflict with the account's other runs, checked on resume too (one run per policy). */
  assertStartable?(request: Req, world: World, runId: string): void;
  /** The hardware tier the run occupies (capacity, API document section 7); null for none. */
  hardwareTier(request: Req): string | null;
  /** The attempt's timeline and token estimate; throws 400 for options it cannot run. */
  plan(request: Req): AttemptPlan;
  /** Where an outcome's failure strikes (DESIGN.md section 4 "Failure codes"). */
  failurePlan(outcome: OutcomeEntry): FailurePlan | undefined;
  /** What the attempt's outputs derive from, computed once per application. */
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
  success(ctx: Ctx, steps: number): { result: Res; line: string };
  /** The files of the archive `<id>/`, given the result and the attempt's whole log. */
  archive(ctx: Ctx, result: Res, steps: number, logs: string[]): ArchiveEntry[];
  /** The kind's own body fields, between the shared ones (DESIGN.md section 7). */
  fields(record: RunRecord<Req>, state: RunState): Record<string, unknown>;
}

/** A read-only route on one run beyond the engine's eight; the engine finds the run (else 404). */
export interface RunRead {
  route: RunRoute<{ params: RunParams }>;
  read(run: RunRecord, state: RunState, catalog: Catalog): unknown;
}

/** A run seeded in a fixed state (no attempt on the clock): the seed fields control seeding takes. */
export type FixedState = Omit<z.infer<z.ZodObject<typeof RunSeedFields>>, 'id' | 'status'> & {
  status: RunState['status'];
  download?: RunState['download'];
};

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

/** A kind's own control seeding route (`/_control/accounts/{id}/<collection>`), beside `/runs`. */
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

/** An error code a kind answers that the catalog (`src/core/errors.ts`) does not list. */
export interface KindError {
  status: number;
  message: string;
  /** The API document does not name it (DESIGN.md section 3). */
  inferred?: boolean;
}

/** A kind as the engine registers it: its definition, its routes, and what it adds. */
export interface RegisteredKind {
  kind: RunKind;
  routes: RunRoutes;
  reads?: readonly RunRead[];
  /** Its own seeding; `satisfies RegisteredKind` keeps each kind's input and answer types. */
  seed?: KindSeed;
  errors?: Readonly<Record<string, KindError>>;
}
