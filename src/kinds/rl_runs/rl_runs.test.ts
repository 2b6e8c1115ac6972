/**
 * RL runs' own rules (API document section 1, "Train a robot policy in simulation from a task
 * spec; yields the policy, its scene and a verdict"; inferred, DESIGN.md section 7): their body,
 * timeline, verdict and archive contents, their failure codes and request checks. What every
 * kind shares (paging, cancel, resume, archive digest, 404, scopes, usage, determinism) is
 * test/engine's.
 */
import { expect, test } from 'vitest';
import { expectApiError, expectOk } from '../../../test/api/support.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, testEmulator } from '../../../test/helpers.js';
import { at, BASE, extractArchive, raw, wilson } from '../../../test/runtime/support.js';
import type { EmulatorOptions } from '../../emulator.js';
import { rlRuns } from './index.js';

/** An emulator serving this kind only, as the kind's own tests need no other. */
const ownKind = (options: EmulatorOptions = {}) => testEmulator({ kinds: [rlRuns], ...options });

type Emu = ReturnType<typeof testEmulator>;

const BODY = { robot: 'franka_panda', task: 'pick_place' };
/** The default timeline: 0.5 s queue, 1 s scene, 20 x 0.2 s training, 1.5 s evaluation, 0.5 s packaging. */
const END = 7.5;
const ESTIMATE = 80;
const ID = /^rl_[0-9A-HJKMNP-TV-Z]{26}$/;

async function create(emu: Emu, body: Record<string, unknown> = BODY) {
  const res = await emu.api('POST', '/v1/rl_runs', { body });
  expectOk(res, 201);
  return res.json;
}

const advance = (emu: Emu, seconds: number) =>
  emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });

const get = async (emu: Emu, id: string) => (await emu.api('GET', `/v1/rl_runs/${id}`)).json;

const balance = async (emu: Emu): Promise<number> =>
  (await emu.control('GET', `/accounts/${DEFAULT_ACCOUNT}`)).token_balance;

const archive = (emu: Emu, id: string) =>
  raw(emu, `/v1/rl_runs/${id}/archive`, { headers: { authorization: `Bearer ${DEFAULT_SECRET}` } });

const links = (id: string) => ({
  self: `${BASE}/v1/rl_runs/${id}`,
  logs: `${BASE}/v1/rl_runs/${id}/logs`,
  files: `${BASE}/v1/rl_runs/${id}/files`,
  archive: `${BASE}/v1/rl_runs/${id}/archive`,
});

test('create answers 201 queued with the whole body, every default resolved', async () => {
  const emu = ownKind();
  const run = await create(emu);
  expect(run.id).toMatch(ID);
  expect(run).toEqual({
    id: run.id,
    object: 'rl_run',
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    robot: 'franka_panda',
    task: 'pick_place',
    environment: 'tabletop_basic',
    hardware_tier: 'gpu-h100',
    config: { iterations: 20, success_threshold: 0.7 },
    name: 'franka_panda pick_place RL policy',
    iterations: { done: 0, total: 20 },
    error: null,
    service_version: '2026-09-27',
    options: {},
    label: null,
    result: null,
    download: null,
    tokens: { charged: ESTIMATE, refunded: 0 },
    webhook_metadata: null,
    created_at: at(0),
    started_at: null,
    completed_at: null,
    links: links(run.id),
  });
});

test('create keeps the given environment, tier, config, name, label and webhook metadata', async () => {
  const emu = ownKind();
  const run = await create(emu, {
    robot: 'ur5e',
    task: 'suction_transfer',
    environment: 'warehouse_shelf',
    hardware_tier: 'gpu-a10',
    config: { iterations: 5 },
    name: 'UR5e suction RL',
    label: 'nightly',
    webhook_metadata: { build: '7' },
  });
  expect(run).toMatchObject({
    robot: 'ur5e',
    task: 'suction_transfer',
    environment: 'warehouse_shelf',
    hardware_tier: 'gpu-a10',
    config: { iterations: 5, success_threshold: 0.7 },
    name: 'UR5e suction RL',
    iterations: { done: 0, total: 5 },
    label: 'nightly',
    webhook_metadata: { build: '7' },
    tokens: { charged: 40 + 2 * 5, refunded: 0 },
  });
});

test('advancing the clock walks building_scene, training, evaluating, packaging to succeeded with the result', async () => {
  const emu = ownKind();
  const { id } = await create(emu);
  const seen: [string, string | null, number | undefined][] = [];
  // Cumulative: 0.5, 1.5, 2.5, 5.5, 7, 7.5 seconds after creation.
  for (const s of [0.5, 1, 1, 3, 1.5, 0.5]) {
    await advance(emu, s);
    const r = await get(emu, id);
    seen.push([r.status, r.phase, r.iterations?.done]);
  }
  expect(seen).toEqual([
    ['processing', 'building_scene', 0],
    ['processing', 'training', 0],
    ['processing', 'training', 5],
    ['processing', 'evaluating', 20],
    ['processing', 'packaging', 20],
    ['succeeded', null, 20],
  ]);
  const run = await get(emu, id);
  expect(run).toMatchObject({
    progress: 1,
    status_message: 'Succeeded',
    error: null,
    tokens: { charged: ESTIMATE, refunded: 0 },
    started_at: at(0.5),
    completed_at: at(END),
  });
  const { verdict } = run.result;
  expect(run.result).toEqual({
    policy: {
      id: `pol_${id.slice(3)}`,
      name: 'franka_panda pick_place RL policy',
      robot: 'franka_panda',
    },
    scene: {
      id: expect.stringMatching(/^scene_[0-9a-f]{16}$/),
      environment: 'tabletop_basic',
      path: 'scene/scene.usda',
    },
    verdict: {
      passed: verdict.success_rate >= 0.7,
      success_rate: expect.any(Number),
      interval: expect.any(Array),
      n: 50,
      threshold: 0.7,
    },
    iterations: 20,
  });
  const k = Math.round(verdict.success_rate * 50);
  expect(k / 50).toBe(verdict.success_rate);
  const [low, high] = wilson(k, 50);
  expect(verdict.interval[0]).toBeCloseTo(low, 6);
  expect(verdict.interval[1]).toBeCloseTo(high, 6);
});

test('an outcome success_rate sets the verdict, and one below the threshold still succeeds not passed', async () => {
  const emu = ownKind();
  const pass = await create(emu, {
    ...BODY,
    options: { emulator: { outcomes: [{ succeed: { success_rate: 0.8 } }] } },
  });
  const fail = await create(emu, {
    ...BODY,
    config: { success_threshold: 0.9 },
    options: { emulator: { outcomes: [{ succeed: { success_rate: 0.5 } }] } },
  });
  await advance(emu, END);
  expect((await get(emu, pass.id)).result.verdict).toEqual({
    passed: true,
    success_rate: 0.8,
    interval: wilson(40, 50).map((x) => Math.round(x * 1e6) / 1e6),
    n: 50,
    threshold: 0.7,
  });
  const failed = await get(emu, fail.id);
  expect(failed.status).toBe('succeeded');
  expect(failed.result.verdict).toMatchObject({ passed: false, success_rate: 0.5, threshold: 0.9 });
});

test('the archive holds the policy, the scene, the training curve, the verdict and the log', async () => {
  const emu = ownKind();
  const { id } = await create(emu);
  await advance(emu, END);
  const run = await get(emu, id);
  const res = await archive(emu, id);
  const listing = await emu.api('GET', `/v1/rl_runs/${id}/files?limit=1000`);
  expectOk(listing, 200);
  const files = listing.json.data as { path: string }[];
  expect(files.map((f) => f.path)).toEqual([
    'logs/rl.log',
    'policy/policy.onnx',
    'scene/scene.usda',
    'training_curve.json',
    'verdict.json',
  ]);
  const extracted = extractArchive(res.bytes);
  const onnx = extracted.get(`${id}/policy/policy.onnx`)!;
  expect(onnx.length).toBeGreaterThan(4096);
  expect(onnx.length).toBeLessThan(8192);
  const curve = JSON.parse(extracted.get(`${id}/training_curve.json`)!.toString('utf8'));
  expect(curve.iterations).toBe(20);
  expect(curve.curve.map((p: { iteration: number }) => p.iteration)).toEqual(
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  const verdict = JSON.parse(extracted.get(`${id}/verdict.json`)!.toString('utf8'));
  expect(verdict).toEqual({
    policy: run.result.policy,
    scene: run.result.scene,
    ...run.result.verdict,
  });
  const scene = extracted.get(`${id}/scene/scene.usda`)!.toString('utf8');
  expect(scene.startsWith('#usda 1.0\n')).toBe(true);
  expect(scene).toContain(run.result.scene.id);

  const logs = await emu.api('GET', `/v1/rl_runs/${id}/logs?limit=5000`);
  expectOk(logs, 200);
  expect(logs.json.lines[0]).toBe(
    `${at(0)} attempt 1 queued: 20 iterations, franka_panda (panda_gripper) on pick_place in tabletop_basic`,
  );
  expect(logs.json.lines).toContain(`${at(0.5)} phase building_scene started`);
  expect(logs.json.lines.filter((l: string) => / iteration \d+\/20 reward=/.test(l))).toHaveLength(
    20,
  );
  expect(logs.json.lines.at(-1)).toMatch(/run succeeded: policy pol_/);
  expect(extracted.get(`${id}/logs/rl.log`)!.toString('utf8')).toBe(
    logs.json.lines.map((l: string) => `${l}\n`).join(''),
  );
});

test('after success the catalog lists the produced policy with source_run naming the run', async () => {
  const emu = ownKind();
  const { id } = await create(emu, { ...BODY, name: 'My RL policy' });
  const before = await emu.api('GET', '/v1/catalog/policies');
  expect(before.json.data.some((p: { source_run: string | null }) => p.source_run === id)).toBe(
    false,
  );
  await advance(emu, END);
  const after = await emu.api('GET', '/v1/catalog/policies');
  expectOk(after, 200);
  expect(after.json.data).toContainEqual(
    expect.objectContaining({
      id: `pol_${id.slice(3)}`,
      name: 'My RL policy',
      robot: 'franka_panda',
      created_at: at(END),
      source_run: id,
    }),
  );
});

test('a training_diverged outcome fails in training at its iteration and refunds the rest', async () => {
  const emu = ownKind();
  const start = await balance(emu);
  const { id } = await create(emu, {
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'training_diverged' }] } },
  });
  await advance(emu, END);
  const failed = await get(emu, id);
  expect(failed).toMatchObject({
    status: 'failed',
    phase: 'training',
    iterations: { done: 10, total: 20 },
    result: null,
    download: null,
    error: {
      code: 'training_diverged',
      message: expect.any(String),
      resumable: true,
      param: null,
      details: { location: 'iterations/0011' },
    },
  });
  // Failed 3.1 s into a 7 s timeline: 35 of the 80 tokens consumed, 45 refunded.
  expect(failed.tokens).toEqual({ charged: ESTIMATE, refunded: 45 });
  expect(await balance(emu)).toBe(start - 35);
  expectOk(await emu.api('POST', `/v1/rl_runs/${id}/resume`), 202);
});

test('a task_invalid outcome fails in building_scene, not resumable, param task, refunding most', async () => {
  const emu = ownKind();
  const { id } = await create(emu, {
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'task_invalid' }] } },
  });
  await advance(emu, END);
  const run = await get(emu, id);
  expect(run).toMatchObject({
    status: 'failed',
    phase: 'building_scene',
    error: {
      code: 'task_invalid',
      resumable: false,
      param: 'task',
      details: { service_code: 'task_invalid' },
    },
  });
  // It strikes half-way through building_scene, 0.5 s into a 7 s timeline: 6 tokens consumed.
  expect(run.tokens).toEqual({ charged: ESTIMATE, refunded: 74 });
  expectApiError(await emu.api('POST', `/v1/rl_runs/${id}/resume`), 409, 'not_resumable');
});

test('an interrupted outcome fails at the phase it names and is resumable', async () => {
  const emu = ownKind();
  const { id } = await create(emu, {
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'interrupted', at: 'evaluating' }] } },
  });
  await advance(emu, END);
  expect(await get(emu, id)).toMatchObject({
    status: 'failed',
    phase: 'evaluating',
    iterations: { done: 20, total: 20 },
    error: { code: 'interrupted', resumable: true, param: null },
  });
  expectOk(await emu.api('POST', `/v1/rl_runs/${id}/resume`), 202);
});

test('an outcome plan naming an unknown failure code or phase answers 400 parameter_invalid', async () => {
  const emu = ownKind();
  const bad = (outcomes: unknown[]) =>
    emu.api('POST', '/v1/rl_runs', { body: { ...BODY, options: { emulator: { outcomes } } } });
  expectApiError(
    await bad([{ fail: 'policy_failed' }]),
    400,
    'parameter_invalid',
    'options.emulator.outcomes.0.fail',
  );
  expectApiError(
    await bad([{ succeed: {} }, { fail: 'interrupted', at: 'running' }]),
    400,
    'parameter_invalid',
    'options.emulator.outcomes.1.at',
  );
  expectApiError(
    await emu.api('POST', '/v1/rl_runs', {
      body: { ...BODY, options: { emulator: { durations_s: { episode: 1 } } } },
    }),
    400,
    'parameter_invalid',
    'options.emulator.durations_s.episode',
  );
  expect((await emu.api('GET', '/v1/rl_runs')).json.data).toEqual([]);
});

test('unknown robot, task, environment and hardware tier answer 400 naming the field', async () => {
  const emu = ownKind();
  const post = (body: Record<string, unknown>) => emu.api('POST', '/v1/rl_runs', { body });
  expectApiError(await post({ ...BODY, robot: 'r2d2' }), 400, 'parameter_invalid', 'robot');
  expectApiError(await post({ ...BODY, task: 'juggle' }), 400, 'parameter_invalid', 'task');
  expectApiError(
    await post({ ...BODY, environment: 'moon' }),
    400,
    'parameter_invalid',
    'environment',
  );
  expectApiError(
    await post({ ...BODY, hardware_tier: 'tpu-v9' }),
    400,
    'parameter_invalid',
    'hardware_tier',
  );
});

test('a task that accepts none of the robot embodiments answers 400 parameter_invalid param task', async () => {
  const emu = ownKind();
  const res = await emu.api('POST', '/v1/rl_runs', {
    body: { robot: 'aloha', task: 'suction_transfer' },
  });
  const error = expectApiError(res, 400, 'parameter_invalid', 'task');
  expect(error.message).toContain('aloha');
});

test('schema rules answer 400 parameter_invalid naming the field', async () => {
  const emu = ownKind();
  const post = (body: unknown) => emu.api('POST', '/v1/rl_runs', { body });
  const cases: [unknown, string][] = [
    [{ task: 'pick_place' }, 'robot'],
    [{ robot: 'franka_panda' }, 'task'],
    [{ ...BODY, robot: 7 }, 'robot'],
    [{ ...BODY, config: { iterations: 0 } }, 'config.iterations'],
    [{ ...BODY, config: { iterations: 1001 } }, 'config.iterations'],
    [{ ...BODY, config: { iterations: 2.5 } }, 'config.iterations'],
    [{ ...BODY, config: { success_threshold: 1.5 } }, 'config.success_threshold'],
    [{ ...BODY, config: { success_threshold: -0.1 } }, 'config.success_threshold'],
    [{ ...BODY, config: { epochs: 3 } }, 'config.epochs'],
    [{ ...BODY, name: '' }, 'name'],
    [{ ...BODY, name: 'x'.repeat(161) }, 'name'],
    [{ ...BODY, label: 'x'.repeat(201) }, 'label'],
    [{ ...BODY, dataset: 'ds_x' }, 'dataset'],
  ];
  for (const [body, param] of cases) {
    expectApiError(await post(body), 400, 'parameter_invalid', param);
  }
  // The limits themselves are accepted.
  const edge = await create(emu, {
    ...BODY,
    config: { iterations: 1000, success_threshold: 0 },
    name: 'x'.repeat(160),
  });
  expect(edge.config).toEqual({ iterations: 1000, success_threshold: 0 });
});
