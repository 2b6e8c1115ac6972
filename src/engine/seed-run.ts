/**
 * Control seeding of a run of any kind (DESIGN.md section 5): on the clock, or in a given state
 * with its logs and files. A kind that seeds in its own terms is given the engine's `SeedOps`.
 */
import { z } from '@hono/zod-openapi';
import { toTimestamp } from '../core/clock.js';
import { DEFAULT_VERSION } from '../core/contract.js';
import { invalidParam, MESSAGES } from '../core/errors.js';
import type { Account } from '../core/records.js';
import { assertIdPrefix, assertNewId } from '../core/seed-ids.js';
import { issueError } from '../core/zod-issue.js';
import type { OutcomeEntry } from './contract/outcomes.js';
import { RunSeedFields, type RunSeedInput } from './contract/seed-input.js';
import { seedShape } from './contract/seed-shape.js';
import type { Deps } from './deps.js';
import type { RunRecord, RunRequest, RunState } from './records.js';
import { createRun } from './run-attempt.js';
import type { FixedState, RegisteredKind, RunKind, SeedOps } from './run-kind.js';
import { assertOutcomePlan } from './run-options.js';
import { seededFailure } from './timeline/failure.js';
import { worldOf } from './world-view.js';

/** The state of a run seeded in a fixed state at `now`: the fields given, the rest defaulted. */
function fixedState(input: FixedState, now: number): RunState {
  const terminal = ['succeeded', 'failed', 'canceled'].includes(input.status);
  const failed = input.status === 'failed' ? seededFailure() : null;
  return {
    status: input.status,
    phase: input.phase ?? null,
    progress: input.progress ?? (input.status === 'succeeded' ? 1 : 0),
    status_message: input.status_message ?? null,
    episodes: input.steps ?? null,
    error: input.error !== undefined ? input.error : failed,
    result: input.result ?? null,
    download: input.download ?? null,
    tokens: input.tokens ?? { charged: 0, refunded: 0 },
    service_version: input.service_version ?? null,
    started_at: input.started_at ?? (input.status === 'queued' ? null : toTimestamp(now)),
    completed_at: input.completed_at ?? (terminal ? toTimestamp(now) : null),
    // With a fixed state the seeded attempt is attempt 1; `outcomes` plans the resumes after
    // it, so the first resume takes `outcomes[0]`.
    ...(input.outcomes ? { plan: [{ succeed: {} }, ...input.outcomes] } : {}),
  };
}

/** The engine's operations for seeding runs of `kind` in `account`, now. */
export function seedOps(deps: Deps, account: Account, kind: RunKind): SeedOps {
  const { store } = deps;
  const now = deps.clocks.now(account);
  const insert = (id: string, request: RunRequest, state: RunState): RunRecord => {
    const record: RunRecord = {
      id,
      accountId: account.id,
      kind: kind.name,
      createdAt: toTimestamp(now),
      request,
      state,
      nextAt: null,
    };
    store.runs.insert(record);
    return record;
  };
  return {
    now,
    catalog: deps.catalog,
    newId: (prefix) => deps.ids.next(prefix, account.id, now),
    ensureNew: (id) => assertNewId(store.runs.exists(id), id),
    checkPlan: (plan) => assertOutcomePlan(kind, plan, 'outcomes'),
    start(id, request, seed) {
      const emulator = request.options.emulator as { outcomes?: OutcomeEntry[] } | undefined;
      const record = createRun(deps, kind, account, {
        id,
        request,
        plan: seed.outcomes ?? emulator?.outcomes,
        now,
        serviceVersion: seed.service_version ?? DEFAULT_VERSION,
        givenFiles: seed.files !== undefined,
      });
      if (seed.files) store.runFiles.replace(id, seed.files);
      return record;
    },
    fix(id, request, input) {
      const state = fixedState(input, now);
      // Stored as given; marked so that the first attempt a resume starts drops them.
      if (input.logs?.length || input.files?.length) state.stored_rows = true;
      const record = insert(id, request, state);
      if (input.logs?.length) store.runLogs.replace(id, input.logs);
      if (input.files?.length) store.runFiles.replace(id, input.files);
      return record;
    },
    insert,
    keepFiles: (id, files) => store.runFiles.replace(id, files),
  };
}

/** A run of a kind that seeds in its own terms (`POST /_control/accounts/{id}/<collection>`). */
export function seedKind(deps: Deps, account: Account, registered: RegisteredKind, input: unknown) {
  const seed = registered.seed!;
  return seed.seed(input as Record<string, unknown>, seedOps(deps, account, registered.kind));
}

/**
 * The input's fields checked against the kind's create body and the seed fields, a `result`
 * against the kind's result schema, so that the seeded body validates as its kind's.
 */
function parseSeed(registered: RegisteredKind, fields: Record<string, unknown>) {
  const { createBody, resource } = registered.routes;
  const result = seedShape(resource.shape.result as z.ZodType).optional();
  const parsed = z
    .object({ ...createBody.shape, ...RunSeedFields, result })
    .strict()
    .safeParse(fields);
  if (!parsed.success) throw issueError(parsed.error.issues[0]!);
  return parsed.data as Record<string, unknown> & Partial<FixedState> & { id?: string };
}

/**
 * `POST /_control/accounts/{id}/runs`: a run of `input.kind`, its fields checked against the kind's
 * create body and the seed fields (400 naming the field), its references against the world.
 * @example seedRun(deps, account, { kind, ...createBody, status: 'failed' })
 */
export function seedRun(deps: Deps, account: Account, input: RunSeedInput): RunRecord {
  const registered = deps.kinds.registered(input.kind);
  if (!registered) throw invalidParam('kind', MESSAGES.notFound('run kind', input.kind));
  const { kind, routes } = registered;
  const { kind: _kind, ...fields } = input;
  const seed = parseSeed(registered, fields);
  const body = Object.fromEntries(
    Object.entries(seed).filter(([key]) => key in routes.createBody.shape),
  );
  assertIdPrefix(seed.id, kind.name, [kind.prefix, ...(kind.legacyPrefixes ?? [])]);
  const ops = seedOps(deps, account, kind);
  const id = seed.id ?? ops.newId(kind.prefix);
  ops.ensureNew(id);
  ops.checkPlan(seed.outcomes);
  const request = kind.prepare(body, worldOf(deps, account));
  if (seed.status !== undefined) return ops.fix(id, request, seed as FixedState);
  return ops.start(id, request, seed);
}
