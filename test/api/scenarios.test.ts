/**
 * POST /v1/scenarios (API document sections 4.3 and 8; DESIGN.md section 3 "POST /v1/scenarios").
 * The catalog is fixtures/catalog.json.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, NO_TWINS_ACCOUNT, testEmulator } from '../helpers.js';
import { expectApiError, expectOk, T0 } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

const SCN_ID = expect.stringMatching(/^scn_[0-9A-HJKMNP-TV-Z]{26}$/);

/** The scenario `franka_panda` + `push` resolves to with nothing else given. */
const PUSH_DEFAULTS = {
  id: SCN_ID,
  object: 'scenario',
  robot: 'franka_panda',
  task: 'push',
  name: null,
  description: null,
  embodiment: 'panda_gripper',
  environment: 'tabletop_basic',
  object_set: null,
  objects: [],
  env_args: {},
  variation_axes: [],
  default_max_steps: 300,
  est_episode_s: 8,
  tags: [],
  builtin: false,
  created_at: T0,
};

async function create(emu: Emu, body: unknown) {
  return emu.api('POST', '/v1/scenarios', { body });
}

async function userAsset(
  emu: Emu,
  kind: 'environments' | 'objects',
  status: string,
  account = DEFAULT_ACCOUNT,
) {
  const asset = await emu.control('POST', `/accounts/${account}/${kind}`, {
    name: `my ${kind}`,
    status,
  });
  return asset.id as string;
}

describe('POST /v1/scenarios', () => {
  test('answers 201 with every field resolved from robot and task alone', async () => {
    const emu = testEmulator();
    const res = await create(emu, { robot: 'franka_panda', task: 'push' });
    expectOk(res, 201);
    expect(res.json).toEqual(PUSH_DEFAULTS);
  });

  test('answers 201 echoing every field that is given', async () => {
    const emu = testEmulator();
    const body = {
      robot: 'ur5e',
      task: 'pick_place',
      name: 'Mug to shelf',
      description: 'Pick the mug and place it on the shelf.',
      embodiment: 'ur5e_robotiq_2f85',
      environment: 'kitchen_counter',
      object_set: 'ycb_core',
      objects: ['ycb_mug', 'drawer_cabinet'],
      env_args: { lighting: { intensity: 0.8 }, seed: 3 },
      variation_axes: ['lighting', 'object_pose'],
      default_max_steps: 1200,
      est_episode_s: 30.5,
      tags: ['kitchen', 'nightly'],
    };
    const res = await create(emu, body);
    expectOk(res, 201);
    expect(res.json).toEqual({
      id: SCN_ID,
      object: 'scenario',
      builtin: false,
      ...body,
      created_at: T0,
    });
  });

  test('each scenario gets its own id, time-stamped on the account clock', async () => {
    const emu = testEmulator();
    const first = await create(emu, { robot: 'franka_panda', task: 'push' });
    await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 90 });
    const second = await create(emu, { robot: 'franka_panda', task: 'push' });
    expectOk(second, 201);
    expect(second.json).toEqual({ ...PUSH_DEFAULTS, created_at: '2026-01-01T00:01:30.000Z' });
    expect(second.json.id).not.toBe(first.json.id);
  });

  test.each([
    ['franka_panda', 'suction_transfer', 'panda_suction', 400, 10],
    ['ur5e', 'suction_transfer', 'ur5e_suction', 400, 10],
    ['unitree_g1', 'open_drawer', 'g1_inspire_hands', 600, 15],
    ['unitree_g1', 'bimanual_handover', 'g1_dex3_hands', 800, 20],
  ])(
    "%s with %s defaults to the robot's first embodiment the task accepts (%s)",
    async (robot, task, embodiment, steps, seconds) => {
      const emu = testEmulator();
      const res = await create(emu, { robot, task });
      expectOk(res, 201);
      expect(res.json).toEqual({
        ...PUSH_DEFAULTS,
        robot,
        task,
        embodiment,
        default_max_steps: steps,
        est_episode_s: seconds,
      });
    },
  );

  test("the step and duration defaults are the task's", async () => {
    const emu = testEmulator();
    const res = await create(emu, { robot: 'aloha', task: 'bimanual_handover' });
    expectOk(res, 201);
    expect(res.json).toEqual({
      ...PUSH_DEFAULTS,
      robot: 'aloha',
      task: 'bimanual_handover',
      embodiment: 'aloha_bimanual',
      default_max_steps: 800,
      est_episode_s: 20,
    });
  });

  test('object_set alone gives the objects of the set', async () => {
    const emu = testEmulator();
    const res = await create(emu, { robot: 'franka_panda', task: 'push', object_set: 'ycb_core' });
    expectOk(res, 201);
    expect(res.json).toEqual({
      ...PUSH_DEFAULTS,
      object_set: 'ycb_core',
      objects: ['ycb_apple', 'ycb_banana', 'ycb_mug', 'ycb_sugar_box'],
    });
  });

  test('objects override object_set', async () => {
    const emu = testEmulator();
    const res = await create(emu, {
      robot: 'franka_panda',
      task: 'push',
      object_set: 'kitchen_tools',
      objects: ['box_small', 'ycb_apple'],
    });
    expectOk(res, 201);
    expect(res.json).toEqual({
      ...PUSH_DEFAULTS,
      object_set: 'kitchen_tools',
      objects: ['box_small', 'ycb_apple'],
    });
  });

  test.each([
    ['name', 'n'.repeat(160)],
    ['description', 'd'.repeat(2000)],
    ['default_max_steps', 100],
    ['default_max_steps', 20000],
    ['est_episode_s', 0.001],
    ['est_episode_s', 3600],
  ])('%s at its limit (%s) is accepted', async (field, value) => {
    const emu = testEmulator();
    const res = await create(emu, { robot: 'franka_panda', task: 'push', [field]: value });
    expectOk(res, 201);
    expect(res.json).toEqual({ ...PUSH_DEFAULTS, [field]: value });
  });

  test.each([
    ['name', 'n'.repeat(161)],
    ['description', 'd'.repeat(2001)],
    ['default_max_steps', 99],
    ['default_max_steps', 20001],
    ['default_max_steps', 150.5],
    ['est_episode_s', 0],
    ['est_episode_s', -1],
    ['est_episode_s', 3600.5],
  ])('%s past its limit (%s) answers 400 naming it', async (field, value) => {
    const emu = testEmulator();
    const res = await create(emu, { robot: 'franka_panda', task: 'push', [field]: value });
    expectApiError(res, 400, 'parameter_invalid', field);
  });

  test.each([
    ['robot', { robot: 'kuka_iiwa', task: 'push' }],
    ['task', { robot: 'franka_panda', task: 'juggle' }],
    ['embodiment', { robot: 'franka_panda', task: 'push', embodiment: 'panda_hands' }],
    ['environment', { robot: 'franka_panda', task: 'push', environment: 'moon_base' }],
    ['object_set', { robot: 'franka_panda', task: 'push', object_set: 'toys' }],
    ['objects.0', { robot: 'franka_panda', task: 'push', objects: ['rubber_duck'] }],
    ['objects.1', { robot: 'franka_panda', task: 'push', objects: ['ycb_mug', 'rubber_duck'] }],
  ])('an unknown catalog id answers 400 parameter_invalid naming %s', async (param, body) => {
    const emu = testEmulator();
    const res = await create(emu, body);
    expectApiError(res, 400, 'parameter_invalid', param);
  });

  test('an embodiment of the robot that the task does not accept answers 400 naming embodiment', async () => {
    const emu = testEmulator();
    const res = await create(emu, {
      robot: 'franka_panda',
      task: 'suction_transfer',
      embodiment: 'panda_gripper',
    });
    const error = expectApiError(res, 400, 'parameter_invalid', 'embodiment');
    expect(error.message).toContain('panda_gripper');
  });

  test('an embodiment of another robot answers 400 naming embodiment', async () => {
    const emu = testEmulator();
    const res = await create(emu, {
      robot: 'franka_panda',
      task: 'push',
      embodiment: 'ur5e_suction',
    });
    expectApiError(res, 400, 'parameter_invalid', 'embodiment');
  });

  test('a task that accepts none of the robot embodiments answers 400 naming task', async () => {
    const emu = testEmulator();
    const res = await create(emu, { robot: 'so100', task: 'suction_transfer' });
    expectApiError(res, 400, 'parameter_invalid', 'task');
  });

  test('a validated user environment is accepted', async () => {
    const emu = testEmulator();
    const env = await userAsset(emu, 'environments', 'validated');
    expect(env).toMatch(/^env_[0-9A-HJKMNP-TV-Z]{26}$/);
    const res = await create(emu, { robot: 'franka_panda', task: 'push', environment: env });
    expectOk(res, 201);
    expect(res.json).toEqual({ ...PUSH_DEFAULTS, environment: env });
  });

  test.each(['pending', 'failed'])(
    'a %s user environment answers 400 naming environment',
    async (status) => {
      const emu = testEmulator();
      const env = await userAsset(emu, 'environments', status);
      const res = await create(emu, { robot: 'franka_panda', task: 'push', environment: env });
      const error = expectApiError(res, 400, 'parameter_invalid', 'environment');
      expect(error.message).toContain(status);
    },
  );

  test("another account's validated environment answers 400 naming environment", async () => {
    const emu = testEmulator();
    const env = await userAsset(emu, 'environments', 'validated', NO_TWINS_ACCOUNT);
    const res = await create(emu, { robot: 'franka_panda', task: 'push', environment: env });
    expectApiError(res, 400, 'parameter_invalid', 'environment');
  });

  test('a validated user object is accepted among catalog assets', async () => {
    const emu = testEmulator();
    const obj = await userAsset(emu, 'objects', 'validated');
    expect(obj).toMatch(/^obj_[0-9A-HJKMNP-TV-Z]{26}$/);
    const res = await create(emu, {
      robot: 'franka_panda',
      task: 'push',
      objects: ['ycb_mug', obj],
    });
    expectOk(res, 201);
    expect(res.json).toEqual({ ...PUSH_DEFAULTS, objects: ['ycb_mug', obj] });
  });

  test('a pending user object answers 400 naming its index', async () => {
    const emu = testEmulator();
    const obj = await userAsset(emu, 'objects', 'pending');
    const res = await create(emu, {
      robot: 'franka_panda',
      task: 'push',
      objects: ['ycb_mug', obj],
    });
    expectApiError(res, 400, 'parameter_invalid', 'objects.1');
  });

  test("another account's validated object answers 400 naming its index", async () => {
    const emu = testEmulator();
    const obj = await userAsset(emu, 'objects', 'validated', NO_TWINS_ACCOUNT);
    const res = await create(emu, { robot: 'franka_panda', task: 'push', objects: [obj] });
    expectApiError(res, 400, 'parameter_invalid', 'objects.0');
  });

  test('a user object given as the environment answers 400 naming environment', async () => {
    const emu = testEmulator();
    const obj = await userAsset(emu, 'objects', 'validated');
    const res = await create(emu, { robot: 'franka_panda', task: 'push', environment: obj });
    expectApiError(res, 400, 'parameter_invalid', 'environment');
  });

  test.each([
    ['robot', { task: 'push' }],
    ['task', { robot: 'franka_panda' }],
  ])('a missing %s answers 400 naming it', async (param, body) => {
    const emu = testEmulator();
    expectApiError(await create(emu, body), 400, 'parameter_invalid', param);
  });

  test('an unknown body field answers 400 naming that field', async () => {
    const emu = testEmulator();
    const res = await create(emu, { robot: 'franka_panda', task: 'push', episode_count: 5 });
    const error = expectApiError(res, 400, 'parameter_invalid', 'episode_count');
    expect(error.message).toContain('episode_count');
  });

  test.each([
    ['robot', { robot: 5, task: 'push' }],
    ['robot', { robot: '', task: 'push' }],
    ['task', { robot: 'franka_panda', task: null }],
    ['tags', { robot: 'franka_panda', task: 'push', tags: 'x' }],
    ['tags.1', { robot: 'franka_panda', task: 'push', tags: ['a', 2] }],
    ['objects', { robot: 'franka_panda', task: 'push', objects: 'ycb_mug' }],
    ['env_args', { robot: 'franka_panda', task: 'push', env_args: ['x'] }],
    ['variation_axes', { robot: 'franka_panda', task: 'push', variation_axes: 'lighting' }],
    ['default_max_steps', { robot: 'franka_panda', task: 'push', default_max_steps: '500' }],
    ['est_episode_s', { robot: 'franka_panda', task: 'push', est_episode_s: '10' }],
  ])('a value of the wrong type answers 400 naming %s', async (param, body) => {
    const emu = testEmulator();
    expectApiError(await create(emu, body), 400, 'parameter_invalid', param);
  });

  test.each([
    ['an array', []],
    ['null', null],
    ['a string', 'franka_panda'],
  ])('a body that is %s answers 400 parameter_invalid without a param', async (_label, body) => {
    const emu = testEmulator();
    const res = await emu.api('POST', '/v1/scenarios', { body: JSON.stringify(body) });
    expectApiError(res, 400, 'parameter_invalid', null);
  });

  test('a key without scenarios:write answers 403 missing_scope', async () => {
    const emu = testEmulator();
    const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
      name: 'reader',
      scopes: ['scenarios:read'],
    });
    const res = await emu.api('POST', '/v1/scenarios', {
      secret: key.secret,
      body: { robot: 'franka_panda', task: 'push' },
    });
    const error = expectApiError(res, 403, 'missing_scope');
    expect(error.details).toEqual({ required_scope: 'scenarios:write' });
  });
});
