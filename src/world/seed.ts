import type {
  EvaluationInput,
  TwinInput,
  UserAssetInput,
  WebhookEndpointInput,
} from '../contract/control-inputs.js';
import { parseEvaluationOptions } from '../domain/evaluation-plan.js';
import type {
  Account,
  EvaluationRequest,
  RunRecord,
  TwinRecord,
  UserAssetKind,
} from '../domain/records.js';
import { assertOutcomePlan } from '../domain/run-options.js';
import { generateTwinFiles } from '../domain/twin-files.js';
import { apiError, MESSAGES } from '../errors.js';
import { evaluationKind } from '../kinds/index.js';
import { toTimestamp } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import { twinRun } from '../runtime/twin-runtime.js';
import { createWebhookEndpoint } from '../runtime/webhook-endpoints.js';
import { ensureNewRun, insertFixedRun, startSeededRun } from './seed-run.js';

function ensureNew(exists: boolean, id: string): void {
  if (exists)
    throw apiError('parameter_invalid', {
      param: 'id',
      message: MESSAGES.alreadyExists(`'${id}'`),
    });
}

/** An evaluation in the given state, with its logs and files as given (DESIGN.md section 5). */
export function seedEvaluation(deps: Deps, account: Account, input: EvaluationInput): RunRecord {
  const now = deps.clocks.now(account);
  const id = input.id ?? deps.ids.next(input.legacy ? 'srun' : 'eval', account.id, now);
  ensureNewRun(deps, id);
  assertOutcomePlan(evaluationKind, input.outcomes, 'outcomes');
  const options = input.options ?? {};
  const request: EvaluationRequest = {
    spec: input.spec,
    options,
    label: input.label ?? null,
    webhook_metadata: input.webhook_metadata ?? null,
  };
  if (input.status === undefined) {
    // What the plan reads from `options.emulator` is checked as a create request would be.
    parseEvaluationOptions(options);
    return startSeededRun(deps, account, evaluationKind, id, request, input);
  }
  return insertFixedRun(deps, account, evaluationKind, id, request, {
    ...input,
    status: input.status,
    steps: input.episodes,
  });
}

export function seedTwin(deps: Deps, account: Account, input: TwinInput) {
  const { store, ids, clocks } = deps;
  const now = clocks.now(account);
  const id = input.id ?? ids.next('twin', account.id, now);
  ensureNew(store.twins.exists(id), id);
  const files = input.files ?? generateTwinFiles(id, input.generate_files ?? 3);
  // Without a status the twin is built on the clock; with one it stays in that state.
  const run = input.status ? null : twinRun(now, files.length, input.fail === true);
  const twin: TwinRecord = {
    id,
    accountId: account.id,
    status: input.status ?? 'queued',
    createdAt: toTimestamp(now),
    run,
    nextAt: run ? run.schedule.queueEndMs : null,
  };
  store.twins.insert(twin);
  // Stored now, listed once the twin has succeeded (409 `twin_not_ready` until then).
  store.twinFiles.replace(id, files);
  return { ...twin, fileCount: files.length };
}

export function seedWebhookEndpoint(deps: Deps, account: Account, input: WebhookEndpointInput) {
  const { id } = input;
  if (id !== undefined) ensureNew(deps.store.webhookEndpoints.exists(id), id);
  return createWebhookEndpoint(deps, account, input, deps.clocks.now(account));
}

export function seedUserAsset(
  deps: Deps,
  account: Account,
  kind: UserAssetKind,
  input: UserAssetInput,
) {
  const { store, ids, clocks } = deps;
  const now = clocks.now(account);
  const prefix = kind === 'environment' ? 'env' : 'obj';
  if (input.id && !input.id.startsWith(`${prefix}_`)) {
    throw apiError('parameter_invalid', {
      param: 'id',
      message: MESSAGES.idPrefix(kind, prefix),
    });
  }
  const id = input.id ?? ids.next(prefix, account.id, now);
  ensureNew(store.userAssets.exists(id), id);
  const asset = {
    id,
    accountId: account.id,
    kind,
    name: input.name,
    status: input.status,
    createdAt: toTimestamp(now),
  };
  store.userAssets.insert(asset);
  return asset;
}
