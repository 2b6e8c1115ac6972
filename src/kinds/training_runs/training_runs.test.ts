/**
 * Training runs' own rules (API document section 1: "Fine-tune a policy on a dataset, one run
 * per policy"; DESIGN.md section 7): their body, timeline and failure codes, the fine-tuned
 * policy and its archive, their request checks and the one run per policy. What every kind
 * shares (paging, cancel, resume, archive digest, 404, scopes, usage, determinism) is
 * test/engine's.
 */
import { expect, test } from 'vitest';
import { expectApiError, expectOk } from '../../../test/api/support.js';
import { DEFAULT_ACCOUNT, testEmulator } from '../../../test/helpers.js';
import { BASE, extractArchive, raw, sha256 } from '../../../test/runtime/support.js';
import type { EmulatorOptions } from '../../emulator.js';
import { evaluations } from '../evaluations/index.js';
import { trainingRuns } from './index.js';

/** An emulator serving this kind only, as the kind's own tests need no other. */
const ownKind = (options: EmulatorOptions = {}) =>
  testEmulator({ kinds: [trainingRuns], ...options });

type Emu = ReturnType<typeof testEmulator>;

const PANDA_POLICY = 'pol_01KA0000000000000000PANDA1';
const PANDA_DATASET = 'ds_01KA0000000000000000PANDA1';
const ALOHA_DATASET = 'ds_01KA0000000000000000ALOHA1';
const T0 = '2026-01-01T00:00:00.000Z';
const BODY = { policy: PANDA_POLICY, dataset: PANDA_DATASET };
/** 20 tokens, plus 10 per epoch of the default 5. */
const ESTIMATE = 70;
/** The default timeline: 0.5 s queue, 1 s preparing, 5 x 0.5 s epochs, 1 s evaluating, 0.5 s exporting. */
const DEFAULT_END_S = 5.5;
const TRAIN_ID = /^train_[0-9A-HJKMNP-TV-Z]{26}$/;

const advance = (emu: Emu, seconds: number) =>
  emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });
const balance = async (emu: Emu): Promise<number> =>
  (await emu.control('GET', `/accounts/${DEFAULT_ACCOUNT}`)).token_balance;

async function create(emu: Emu, body: Record<string, unknown> = BODY) {
  const res = await emu.api('POST', '/v1/training_runs', { body });
  expectOk(res, 201);
  return res.json;
}

const get = async (emu: Emu, id: string) => (await emu.api('GET', `/v1/training_runs/${id}`)).json;

const links = (id: string) => ({
  self: `${BASE}/v1/training_runs/${id}`,
  logs: `${BASE}/v1/training_runs/${id}/logs`,
  files: `${BASE}/v1/training_runs/${id}/files`,
  archive: `${BASE}/v1/training_runs/${id}/archive`,
});

test('create answers 201 queued with the whole body, its defaults resolved', async () => {
  const emu = ownKind();
  const res = await emu.api('POST', '/v1/training_runs', {
    body: { ...BODY, label: 'ft-1', webhook_metadata: { team: 'a' } },
  });
  expectOk(res, 201);
  expect(res.json.id).toMatch(TRAIN_ID);
  expect(res.json).toEqual({
    id: res.json.id,
    object: 'training_run',
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    policy: PANDA_POLICY,
    dataset: PANDA_DATASET,
    hardware_tier: 'gpu-a10',
    config: { epochs: 5, learning_rate: 0.0003 },
    name: 'Panda pick-and-place baseline fine-tuned on Panda tabletop pick-and-place',
    epochs: { done: 0, total: 5 },
    error: null,
    service_version: '2026-09-27',
    options: {},
    label: 'ft-1',
    result: null,
    download: null,
    tokens: { charged: ESTIMATE, refunded: 0 },
    webhook_metadata: { team: 'a' },
    created_at: T0,
    started_at: null,
    completed_at: null,
    links: links(res.json.id),
  });
});

test('create keeps the given tier, config and name', async () => {
  const emu = ownKind();
  const run = await create(emu, {
    ...BODY,
    hardware_tier: 'gpu-h100',
    config: { epochs: 3, learning_rate: 0.01 },
    name: 'My panda',
  });
  expect(run).toMatchObject({
    hardware_tier: 'gpu-h100',
    config: { epochs: 3, learning_rate: 0.01 },
    name: 'My panda',
    epochs: { done: 0, total: 3 },
    tokens: { charged: 50, refunded: 0 },
  });
});

test('advancing the clock walks the phases to succeeded with the fine-tuned policy as result', async () => {
  const emu = ownKind();
  const { id } = await create(emu);
  const seen: Record<string, unknown>[] = [];
  for (const step of [0.25, 0.75, 1, 1.5, 1.25, 0.5, 1.25]) {
    await advance(emu, step);
    const run = await get(emu, id);
    seen.push({ status: run.status, phase: run.phase, epochs: run.epochs });
  }
  expect(seen).toEqual([
    { status: 'queued', phase: null, epochs: { done: 0, total: 5 } },
    { status: 'processing', phase: 'preparing', epochs: { done: 0, total: 5 } },
    { status: 'processing', phase: 'training', epochs: { done: 1, total: 5 } },
    { status: 'processing', phase: 'training', epochs: { done: 4, total: 5 } },
    { status: 'processing', phase: 'evaluating', epochs: { done: 5, total: 5 } },
    { status: 'processing', phase: 'exporting', epochs: { done: 5, total: 5 } },
    { status: 'succeeded', phase: null, epochs: { done: 5, total: 5 } },
  ]);
  const run = await get(emu, id);
  expect(run).toMatchObject({
    progress: 1,
    status_message: 'Succeeded',
    error: null,
    tokens: { charged: ESTIMATE, refunded: 0 },
    started_at: '2026-01-01T00:00:00.500Z',
    completed_at: '2026-01-01T00:00:05.500Z',
  });
  const ulid = id.slice('train_'.length);
  expect(run.result).toEqual({
    policy: {
      id: `pol_${ulid}`,
      name: 'Panda pick-and-place baseline fine-tuned on Panda tabletop pick-and-place',
      robot: 'franka_panda',
    },
    base_policy: PANDA_POLICY,
    dataset: PANDA_DATASET,
    epochs: 5,
    metrics: {
      final_loss: expect.any(Number),
      eval_success_rate: expect.any(Number),
      interval: [expect.any(Number), expect.any(Number)],
      n: 20,
    },
    checkpoint: {
      path: 'policy/checkpoint.safetensors',
      bytes: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    },
  });
  const { metrics } = run.result;
  expect(metrics.interval[0]).toBeLessThanOrEqual(metrics.eval_success_rate);
  expect(metrics.interval[1]).toBeGreaterThanOrEqual(metrics.eval_success_rate);
  expect(metrics.final_loss).toBeGreaterThan(0);
});

test('the archive holds the checkpoint, metrics and config of the result, and the log', async () => {
  const emu = ownKind();
  const { id } = await create(emu);
  await advance(emu, DEFAULT_END_S);
  const run = await get(emu, id);
  const archive = await raw(emu, `/v1/training_runs/${id}/archive`, {
    headers: { authorization: 'Bearer svc_test_emulator_default' },
  });
  const files = await emu.api('GET', `/v1/training_runs/${id}/files`);
  expectOk(files, 200);
  const extracted = extractArchive(archive.bytes);
  expect(files.json.data.map((f: { path: string }) => f.path)).toEqual([
    'logs/train.log',
    'metrics.json',
    'policy/checkpoint.safetensors',
    'policy/config.json',
  ]);

  const checkpoint = extracted.get(`${id}/policy/checkpoint.safetensors`)!;
  expect(run.result.checkpoint).toEqual({
    path: 'policy/checkpoint.safetensors',
    bytes: checkpoint.length,
    sha256: sha256(checkpoint),
  });
  // The safetensors layout: a little-endian header length, then the JSON header.
  const headerLength = Number(checkpoint.readBigUInt64LE(0));
  const header = JSON.parse(checkpoint.subarray(8, 8 + headerLength).toString('utf8'));
  expect(header['adapter.weight']).toEqual({
    dtype: 'F32',
    shape: [32, 32],
    data_offsets: [0, 4096],
  });
  expect(checkpoint.length).toBe(8 + headerLength + 4096);

  const metrics = JSON.parse(extracted.get(`${id}/metrics.json`)!.toString('utf8'));
  expect(metrics.epochs.map((e: { epoch: number }) => e.epoch)).toEqual([1, 2, 3, 4, 5]);
  expect(metrics.epochs.at(-1).loss).toBe(run.result.metrics.final_loss);
  expect(metrics.evaluation).toEqual(run.result.metrics);
  const config = JSON.parse(extracted.get(`${id}/policy/config.json`)!.toString('utf8'));
  expect(config).toMatchObject({ policy: run.result.policy, base_policy: PANDA_POLICY });

  const logs = await emu.api('GET', `/v1/training_runs/${id}/logs?limit=5000`);
  expectOk(logs, 200);
  const { lines } = logs.json;
  expect(lines[0]).toBe(
    `${T0} attempt 1 queued: 5 epochs, policy ${PANDA_POLICY} on dataset ${PANDA_DATASET}`,
  );
  expect(lines).toContain('2026-01-01T00:00:01.500Z phase training started');
  expect(lines.filter((l: string) => / epoch \d\/5 loss=/.test(l))).toHaveLength(5);
  expect(lines.at(-1)).toMatch(/run succeeded: policy pol_/);
  expect(extracted.get(`${id}/logs/train.log`)!.toString('utf8')).toBe(
    lines.map((l: string) => `${l}\n`).join(''),
  );
});

test('the fine-tuned policy joins the catalog, can be evaluated and fine-tuned again', async () => {
  const emu = ownKind({ kinds: [trainingRuns, evaluations] });
  const { id } = await create(emu);
  await advance(emu, DEFAULT_END_S);
  const { result } = await get(emu, id);
  const policies = await emu.api('GET', '/v1/catalog/policies');
  expectOk(policies, 200);
  expect(policies.json.data.at(-1)).toEqual({
    ...result.policy,
    object: 'policy',
    created_at: '2026-01-01T00:00:05.500Z',
    source_run: id,
  });
  const evaluation = await emu.api('POST', '/v1/evaluations', {
    body: {
      spec: { path: 'specs/pick_place.py', name: 'pick_place' },
      options: { policy: result.policy.id },
    },
  });
  expectOk(evaluation, 201);
  const again = await create(emu, { policy: result.policy.id, dataset: PANDA_DATASET });
  expect(again.policy).toBe(result.policy.id);
  expect(again.name).toBe(`${result.policy.name} fine-tuned on Panda tabletop pick-and-place`);
});

test('an outcome plan fails the run at its phase and refunds the unconsumed tokens', async () => {
  const emu = ownKind();
  const before = await balance(emu);
  const { id } = await create(emu, {
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'diverged', after_episodes: 2 }] } },
  });
  expect(await balance(emu)).toBe(before - ESTIMATE);
  await advance(emu, DEFAULT_END_S);
  const run = await get(emu, id);
  // Epoch 3 diverges half-way: 2.25 s of the 5 s after the queue ran, 45% of the estimate.
  expect(run).toMatchObject({
    status: 'failed',
    phase: 'training',
    progress: 0.45,
    epochs: { done: 2, total: 5 },
    result: null,
    download: null,
    tokens: { charged: ESTIMATE, refunded: 38 },
    completed_at: '2026-01-01T00:00:02.750Z',
  });
  expect(run.error).toEqual({
    code: 'diverged',
    message: 'The training loss diverged.',
    resumable: true,
    param: null,
    details: { location: 'epochs/0003' },
  });
  expect(await balance(emu)).toBe(before - ESTIMATE + 38);
});

test('dataset_invalid fails at preparing naming the dataset, and is not resumable', async () => {
  const emu = ownKind();
  const { id } = await create(emu, {
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'dataset_invalid' }] } },
  });
  await advance(emu, DEFAULT_END_S);
  const run = await get(emu, id);
  expect(run).toMatchObject({ status: 'failed', phase: 'preparing' });
  expect(run.error).toEqual({
    code: 'dataset_invalid',
    message: 'The dataset could not be prepared for training.',
    resumable: false,
    param: 'dataset',
    details: { service_code: 'dataset_invalid' },
  });
  expectApiError(await emu.api('POST', `/v1/training_runs/${id}/resume`), 409, 'not_resumable');
});

test('interrupted fails at the phase its outcome names; the resumed run yields the same policy id', async () => {
  const emu = ownKind();
  const { id } = await create(emu, {
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'interrupted', at: 'evaluating' }] } },
  });
  await advance(emu, DEFAULT_END_S);
  const run = await get(emu, id);
  expect(run).toMatchObject({
    status: 'failed',
    phase: 'evaluating',
    epochs: { done: 5, total: 5 },
  });
  expect(run.error).toMatchObject({ code: 'interrupted', resumable: true });
  expectOk(await emu.api('POST', `/v1/training_runs/${id}/resume`), 202);
  await advance(emu, DEFAULT_END_S);
  const done = await get(emu, id);
  expect(done.status).toBe('succeeded');
  expect(done.result.policy.id).toBe(`pol_${id.slice('train_'.length)}`);
});

test('an unknown failure code or phase in the outcome plan answers 400 naming it', async () => {
  const emu = ownKind();
  const bad = async (outcome: Record<string, unknown>, param: string) =>
    expectApiError(
      await emu.api('POST', '/v1/training_runs', {
        body: { ...BODY, options: { emulator: { outcomes: [outcome] } } },
      }),
      400,
      'parameter_invalid',
      param,
    );
  await bad({ fail: 'policy_failed' }, 'options.emulator.outcomes.0.fail');
  await bad({ fail: 'interrupted', at: 'running' }, 'options.emulator.outcomes.0.at');
  expectApiError(
    await emu.api('POST', '/v1/training_runs', {
      body: { ...BODY, options: { emulator: { durations_s: { episode: 1 } } } },
    }),
    400,
    'parameter_invalid',
    'options.emulator.durations_s.episode',
  );
});

test('each invalid create field answers 400 parameter_invalid naming it', async () => {
  const emu = ownKind();
  const cases: [Record<string, unknown>, string][] = [
    [{ dataset: PANDA_DATASET }, 'policy'],
    [{ policy: PANDA_POLICY }, 'dataset'],
    [{ ...BODY, policy: 'pol_nope' }, 'policy'],
    [{ ...BODY, dataset: 'ds_nope' }, 'dataset'],
    [{ ...BODY, hardware_tier: 'tpu-v9' }, 'hardware_tier'],
    [{ ...BODY, config: { epochs: 0 } }, 'config.epochs'],
    [{ ...BODY, config: { epochs: 101 } }, 'config.epochs'],
    [{ ...BODY, config: { epochs: 2.5 } }, 'config.epochs'],
    [{ ...BODY, config: { learning_rate: 0 } }, 'config.learning_rate'],
    [{ ...BODY, config: { learning_rate: 1.5 } }, 'config.learning_rate'],
    [{ ...BODY, config: { batch_size: 8 } }, 'config.batch_size'],
    [{ ...BODY, name: '' }, 'name'],
    [{ ...BODY, name: 'x'.repeat(161) }, 'name'],
    [{ ...BODY, spec: {} }, 'spec'],
  ];
  for (const [body, param] of cases) {
    expectApiError(
      await emu.api('POST', '/v1/training_runs', { body }),
      400,
      'parameter_invalid',
      param,
    );
  }
  expectOk(
    await emu.api('POST', '/v1/training_runs', {
      body: { ...BODY, config: { epochs: 100, learning_rate: 1 }, name: 'x'.repeat(160) },
    }),
    201,
  );
});

test("a dataset of another robot than the policy's answers 400 naming dataset", async () => {
  const emu = ownKind();
  const error = expectApiError(
    await emu.api('POST', '/v1/training_runs', {
      body: { policy: PANDA_POLICY, dataset: ALOHA_DATASET },
    }),
    400,
    'parameter_invalid',
    'dataset',
  );
  expect(error.message).toContain("'aloha'");
  expect(error.message).toContain("'franka_panda'");
});

test('a second run for a policy in training answers 409 policy_in_training until the first ends', async () => {
  const emu = ownKind();
  const first = await create(emu);
  const error = expectApiError(
    await emu.api('POST', '/v1/training_runs', { body: BODY }),
    409,
    'policy_in_training',
    'policy',
  );
  expect(error.details).toEqual({ training_run: first.id });
  await advance(emu, 2);
  expectApiError(
    await emu.api('POST', '/v1/training_runs', { body: BODY }),
    409,
    'policy_in_training',
    'policy',
  );
  // Once the first run has ended, the policy can be fine-tuned again.
  await advance(emu, DEFAULT_END_S);
  const second = await create(emu);
  expect(second.id).not.toBe(first.id);
});

test('resuming a run whose policy another training run has taken meanwhile answers 409 policy_in_training', async () => {
  const emu = ownKind();
  const first = await create(emu, {
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'diverged' }] } },
  });
  await advance(emu, 60);
  expect((await get(emu, first.id)).status).toBe('failed');
  const second = await create(emu);
  const res = await emu.api('POST', `/v1/training_runs/${first.id}/resume`);
  const error = expectApiError(res, 409, 'policy_in_training', 'policy');
  expect(error.details).toEqual({ training_run: second.id });
  expect((await get(emu, first.id)).status).toBe('failed');
  await advance(emu, 60);
  expectOk(await emu.api('POST', `/v1/training_runs/${first.id}/resume`), 202);
});
