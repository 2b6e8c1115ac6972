import { DEFAULT_VERSION } from '../contract/common.js';
import type {
  EvaluationInput,
  TwinInput,
  UserAssetInput,
  WebhookEndpointInput,
} from '../contract/control-inputs.js';
import type { Account, EvaluationRequest, RunRecord, UserAssetKind } from '../domain/records.js';
import { assertOutcomePlan } from '../domain/run-options.js';
import { apiError, MESSAGES } from '../errors.js';
import { parseEvaluationOptions } from '../kinds/evaluations/plan.js';
import { evaluationKind, twinKind } from '../kinds/index.js';
import { generateTwinFiles } from '../kinds/twins/files.js';
import { twinPartsOf } from '../kinds/twins/outputs.js';
import { seededTwinRequest, seededTwinState } from '../kinds/twins/seeded.js';
import { toTimestamp } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import { createRun } from '../runtime/engine/run-attempt.js';
import { createWebhookEndpoint } from '../runtime/webhooks/endpoints.js';
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

/**
 * A twin as the control API seeds it (DESIGN.md section 5), with generated or given files: in
 * a fixed state when `status` is given; otherwise built on the clock like a created twin (1 s
 * queued, 4 s building), failing `reconstruction_failed` with `fail: true`. Either keeps the
 * seeded listing once it has succeeded, and builds no archive. Its scene is that of the first
 * episode of the catalog's first dataset.
 */
export function seedTwin(deps: Deps, account: Account, input: TwinInput) {
  const { store, ids, clocks } = deps;
  const now = clocks.now(account);
  const id = input.id ?? ids.next('twin', account.id, now);
  ensureNew(store.runs.exists(id), id);
  const files = input.files ?? generateTwinFiles(id, input.generate_files ?? 3);
  const dataset = deps.catalog.datasets[0]!;
  const episode = dataset.episodes[0]!;
  const source = { dataset: dataset.id, episode: episode.index, parts: twinPartsOf(episode) };
  const request = seededTwinRequest(source, files.length);
  let record: RunRecord;
  if (input.status === undefined) {
    record = createRun(deps, twinKind, account, {
      id,
      request,
      plan: input.fail ? [{ fail: 'reconstruction_failed' }] : undefined,
      now,
      serviceVersion: DEFAULT_VERSION,
      givenFiles: true,
    });
  } else {
    record = {
      id,
      accountId: account.id,
      kind: twinKind.name,
      createdAt: toTimestamp(now),
      request,
      state: seededTwinState(input.status, toTimestamp(now), source),
      nextAt: null,
    };
    // Its listing is stored: the first attempt a resume starts drops it.
    if (files.length > 0) record.state.stored_rows = true;
    store.runs.insert(record);
  }
  // Stored now, listed once the twin has succeeded (409 `twin_not_ready` until then).
  store.runFiles.replace(id, files);
  return { id, status: record.state.status, createdAt: record.createdAt, fileCount: files.length };
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
