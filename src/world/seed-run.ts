/**
 * Control seeding of a run of any kind (DESIGN.md section 5): on the clock with an outcome plan,
 * or already in a given state, with its logs and files as given. Evaluations keep their own
 * input (`seedEvaluation`); every kind shares the state it is put in.
 */
import { z } from '@hono/zod-openapi';
import { DEFAULT_VERSION } from '../contract/common.js';
import { RunSeedFields, type RunSeedInput } from '../contract/control-inputs.js';
import type { OutcomeEntry } from '../contract/outcomes.js';
import type { Account, FileEntry, RunError, RunRecord, RunState } from '../domain/records.js';
import { seededFailure } from '../domain/run-failure.js';
import type { RunKind } from '../domain/run-kind.js';
import { assertOutcomePlan } from '../domain/run-options.js';
import { issueMessage, issueParam } from '../domain/zod-issue.js';
import { apiError, MESSAGES } from '../errors.js';
import type { IdPrefix } from '../ids.js';
import { REGISTERED_KINDS } from '../kinds/index.js';
import { toTimestamp } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import { createRun } from '../runtime/engine/run-attempt.js';
import { worldOf } from '../runtime/engine/world-view.js';

/** The state fields a seed may fix. */
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

/** A seeded id must be new, across every account and kind. */
export function ensureNewRun(deps: Deps, id: string): void {
  if (deps.store.runs.exists(id))
    throw apiError('parameter_invalid', {
      param: 'id',
      message: MESSAGES.alreadyExists(`'${id}'`),
    });
}

/** A run that stays in the state it is given (no attempt on the clock), inserted now. */
export function insertFixedRun(
  deps: Deps,
  account: Account,
  kind: RunKind,
  id: string,
  request: RunRecord['request'],
  input: FixedState,
): RunRecord {
  const now = deps.clocks.now(account);
  const terminal = ['succeeded', 'failed', 'canceled'].includes(input.status);
  const record: RunRecord = {
    id,
    accountId: account.id,
    kind: kind.name,
    createdAt: toTimestamp(now),
    request,
    nextAt: null,
    state: {
      status: input.status,
      phase: input.phase ?? null,
      progress: input.progress ?? (input.status === 'succeeded' ? 1 : 0),
      status_message: input.status_message ?? null,
      episodes: input.steps ?? null,
      error:
        input.error !== undefined
          ? input.error
          : input.status === 'failed'
            ? seededFailure()
            : null,
      result: input.result ?? null,
      download: input.download ?? null,
      tokens: input.tokens ?? { charged: 0, refunded: 0 },
      service_version: input.service_version ?? null,
      started_at: input.started_at ?? (input.status === 'queued' ? null : toTimestamp(now)),
      completed_at: input.completed_at ?? (terminal ? toTimestamp(now) : null),
      // With a fixed state the seeded attempt is attempt 1; `outcomes` plans the resumes after
      // it, so the first resume takes `outcomes[0]`.
      ...(input.outcomes ? { plan: [{ succeed: {} }, ...input.outcomes] } : {}),
    },
  };
  // Stored as given; marked so that the first attempt a resume starts drops them.
  if (input.logs?.length || input.files?.length) record.state.stored_rows = true;
  deps.store.runs.insert(record);
  if (input.logs?.length) deps.store.runLogs.replace(id, input.logs);
  if (input.files?.length) deps.store.runFiles.replace(id, input.files);
  return record;
}

/** A seeded run put on the clock like a created one, keeping a given file listing. */
export function startSeededRun(
  deps: Deps,
  account: Account,
  kind: RunKind,
  id: string,
  request: RunRecord['request'],
  input: { outcomes?: OutcomeEntry[]; service_version?: string | null; files?: FileEntry[] },
): RunRecord {
  const emulator = request.options.emulator as { outcomes?: OutcomeEntry[] } | undefined;
  const record = createRun(deps, kind, account, {
    id,
    request,
    plan: input.outcomes ?? emulator?.outcomes,
    now: deps.clocks.now(account),
    serviceVersion: input.service_version ?? DEFAULT_VERSION,
    givenFiles: input.files !== undefined,
  });
  if (input.files) deps.store.runFiles.replace(id, input.files);
  return record;
}

/**
 * `POST /_control/accounts/{id}/runs`: a run of `input.kind`, its fields checked against the
 * kind's create body and the seed fields (400 `parameter_invalid` naming the field), its
 * references against the account's world.
 * @example seedRun(deps, account, { kind: 'augmentation', dataset, config: { episode_count: 2 }, status: 'failed' })
 */
export function seedRun(deps: Deps, account: Account, input: RunSeedInput): RunRecord {
  const registered = REGISTERED_KINDS.find(({ kind }) => kind.name === input.kind);
  if (!registered)
    throw apiError('parameter_invalid', {
      param: 'kind',
      message: MESSAGES.notFound('run kind', input.kind),
    });
  const { kind, routes } = registered;
  const { kind: _kind, ...fields } = input;
  const parsed = z
    .object({ ...routes.createBody.shape, ...RunSeedFields })
    .strict()
    .safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = issueParam(issue);
    throw apiError('parameter_invalid', { param, message: issueMessage(issue, param) });
  }
  const seed = parsed.data as Record<string, unknown> & Partial<FixedState> & { id?: string };
  const body = Object.fromEntries(
    Object.entries(seed).filter(([key]) => key in routes.createBody.shape),
  );
  const prefixes = [kind.prefix, ...(kind.legacyPrefixes ?? [])];
  if (seed.id !== undefined && !prefixes.some((p) => seed.id!.startsWith(`${p}_`)))
    throw apiError('parameter_invalid', {
      param: 'id',
      message: MESSAGES.idPrefix(kind.name, kind.prefix),
    });
  const now = deps.clocks.now(account);
  const id = seed.id ?? deps.ids.next(kind.prefix as IdPrefix, account.id, now);
  ensureNewRun(deps, id);
  assertOutcomePlan(kind, seed.outcomes, 'outcomes');
  const request = kind.prepare(body, worldOf(deps, account));
  if (seed.status === undefined) return startSeededRun(deps, account, kind, id, request, seed);
  return insertFixedRun(deps, account, kind, id, request, seed as FixedState);
}
