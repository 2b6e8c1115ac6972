/**
 * Augmentations' own rules (inferred; API document sections 1, 7 and 8, DESIGN.md section 7):
 * their body and defaults, the episodes they yield and list, their request checks and failure
 * codes. What every kind shares (paging, cancel, resume, archive digest, scopes, events, usage,
 * determinism) is test/engine's.
 */
import { expect, test } from 'vitest';
import { expectApiError, expectOk } from '../../../test/api/support.js';
import { DEFAULT_ACCOUNT, testEmulator } from '../../../test/helpers.js';
import { extractArchive, raw } from '../../../test/runtime/support.js';
import type { EmulatorOptions } from '../../emulator.js';
import { augmentations } from './index.js';

/** An emulator serving this kind only, as the kind's own tests need no other. */
const ownKind = (options: EmulatorOptions = {}) =>
  testEmulator({ kinds: [augmentations], ...options });

const PANDA = 'ds_01KA0000000000000000PANDA1';
const BODY = { dataset: PANDA, config: { episode_count: 3 } };
const AUG_ID = /^aug_[0-9A-HJKMNP-TV-Z]{26}$/;

function setup() {
  const emu = ownKind();
  const advance = (seconds: number) =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });
  const create = async (body: Record<string, unknown> = BODY) => {
    const res = await emu.api('POST', '/v1/augmentations', { body });
    expectOk(res, 201);
    return res.json;
  };
  return { emu, advance, create };
}

test('a new augmentation answers 201 queued with every field, its config defaults resolved', async () => {
  const { create } = setup();
  const aug = await create({ ...BODY, label: 'nightly', webhook_metadata: { build: 7 } });
  expect(aug.id).toMatch(AUG_ID);
  expect(aug).toEqual({
    id: aug.id,
    object: 'augmentation',
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    dataset: PANDA,
    config: {
      episode_count: 3,
      cameras: ['wrist', 'front'],
      variations: ['lighting', 'background'],
    },
    hardware_tier: 'gpu-a10',
    episodes: { done: 0, total: 3 },
    error: null,
    service_version: '2026-09-27',
    options: {},
    label: 'nightly',
    result: null,
    download: null,
    tokens: { charged: 5 + 2 * 3 * 2, refunded: 0 },
    webhook_metadata: { build: 7 },
    created_at: '2026-01-01T00:00:00.000Z',
    started_at: null,
    completed_at: null,
    links: {
      self: `http://localhost/v1/augmentations/${aug.id}`,
      logs: `http://localhost/v1/augmentations/${aug.id}/logs`,
      files: `http://localhost/v1/augmentations/${aug.id}/files`,
      archive: `http://localhost/v1/augmentations/${aug.id}/archive`,
    },
  });
});

test('a succeeded augmentation yields its episodes: the result, one file per camera and episode, its log', async () => {
  const { emu, advance, create } = setup();
  const aug = await create();
  await advance(10);
  const done = (await emu.api('GET', `/v1/augmentations/${aug.id}`)).json;
  expect(done).toMatchObject({
    status: 'succeeded',
    progress: 1,
    episodes: { done: 3, total: 3 },
    tokens: { charged: 17, refunded: 0 },
    completed_at: '2026-01-01T00:00:02.250Z',
  });
  expect(done.result).toMatchObject({
    dataset: PANDA,
    episode_count: 3,
    cameras: ['wrist', 'front'],
  });
  expect(done.result.episodes.map((e: { source_episode: number }) => e.source_episode)).toEqual([
    0, 1, 2,
  ]);

  const archive = await raw(emu, `/v1/augmentations/${aug.id}/archive`, {
    headers: { authorization: 'Bearer svc_test_emulator_default' },
  });
  const files = (await emu.api('GET', `/v1/augmentations/${aug.id}/files?limit=1000`)).json.data;
  expect(files.map((f: { path: string }) => f.path)).toContain('episodes/0003/front.mp4');
  const extracted = extractArchive(archive.bytes);
  const logs = await emu.api('GET', `/v1/augmentations/${aug.id}/logs?limit=3`);
  expect(logs.json.lines.at(-1)).toMatch(/augmentation succeeded: 3 episodes/);
  const log = extracted.get(`${aug.id}/logs/augment.log`)!.toString();
  expect(log).toContain('episode 2/3 generated from source episode 1');
});

test('the episodes listing grows as episodes are generated', async () => {
  const { emu, advance, create } = setup();
  const aug = await create({ ...BODY, config: { episode_count: 4, cameras: ['front'] } });
  const list = async () => (await emu.api('GET', `/v1/augmentations/${aug.id}/episodes`)).json;
  expect((await list()).data).toEqual([]);
  await advance(1.5); // queue 0.5, loading 0.5, two episodes of 0.25 s
  const partial = await list();
  expect(partial.data.map((e: { index: number }) => e.index)).toEqual([1, 2]);
  expect(partial.data[0]).toMatchObject({
    object: 'augmentation_episode',
    cameras: ['front'],
    path: 'episodes/0001',
  });
  await advance(10);
  expect((await list()).data).toHaveLength(4);
  expectApiError(
    await emu.api('GET', '/v1/augmentations/aug_00000000000000000000000000/episodes'),
    404,
    'resource_not_found',
    'run_id',
  );
});

test('episode_count outside 1 to 50 answers 400 parameter_invalid naming config.episode_count', async () => {
  const { emu } = setup();
  for (const episode_count of [0, 51, 2.5]) {
    const res = await emu.api('POST', '/v1/augmentations', {
      body: { dataset: PANDA, config: { episode_count } },
    });
    expectApiError(res, 400, 'parameter_invalid', 'config.episode_count');
  }
  const missing = await emu.api('POST', '/v1/augmentations', {
    body: { dataset: PANDA, config: {} },
  });
  expectApiError(missing, 400, 'parameter_invalid', 'config.episode_count');
});

test('a camera the dataset lacks answers 400 camera_not_found listing the cameras it has', async () => {
  const { emu } = setup();
  const res = await emu.api('POST', '/v1/augmentations', {
    body: { dataset: PANDA, config: { episode_count: 2, cameras: ['wrist', 'overhead'] } },
  });
  const error = expectApiError(res, 400, 'camera_not_found', 'config.cameras');
  expect(error.details).toEqual({ cameras: ['wrist', 'front'] });
  expect(error.message).toContain("'overhead'");
});

test('an unknown dataset or hardware tier answers 400 parameter_invalid naming the field', async () => {
  const { emu } = setup();
  expectApiError(
    await emu.api('POST', '/v1/augmentations', { body: { ...BODY, dataset: 'ds_nope' } }),
    400,
    'parameter_invalid',
    'dataset',
  );
  expectApiError(
    await emu.api('POST', '/v1/augmentations', { body: { ...BODY, hardware_tier: 'tpu-v9' } }),
    400,
    'parameter_invalid',
    'hardware_tier',
  );
});

test('generation_failed fails it generating, at the episode after after_episodes, and is resumable', async () => {
  const { emu, advance, create } = setup();
  const aug = await create({
    ...BODY,
    config: { episode_count: 4 },
    options: { emulator: { outcomes: [{ fail: 'generation_failed', after_episodes: 2 }] } },
  });
  await advance(10);
  const failed = (await emu.api('GET', `/v1/augmentations/${aug.id}`)).json;
  expect(failed).toMatchObject({
    status: 'failed',
    phase: 'generating',
    episodes: { done: 2, total: 4 },
    error: {
      code: 'generation_failed',
      resumable: true,
      details: { location: 'episodes/0003' },
    },
    result: null,
    download: null,
  });
  expectOk(await emu.api('POST', `/v1/augmentations/${aug.id}/resume`), 202);
});

test('dataset_unreadable is not resumable; an unknown failure code answers 400', async () => {
  const { emu, advance, create } = setup();
  const aug = await create({
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'dataset_unreadable' }] } },
  });
  await advance(10);
  const failed = (await emu.api('GET', `/v1/augmentations/${aug.id}`)).json;
  expect(failed).toMatchObject({
    status: 'failed',
    phase: 'loading',
    error: { code: 'dataset_unreadable', resumable: false, param: 'dataset' },
  });
  expectApiError(await emu.api('POST', `/v1/augmentations/${aug.id}/resume`), 409, 'not_resumable');
  const bad = await emu.api('POST', '/v1/augmentations', {
    body: { ...BODY, options: { emulator: { outcomes: [{ fail: 'spec_invalid' }] } } },
  });
  expectApiError(bad, 400, 'parameter_invalid', 'options.emulator.outcomes.0.fail');
});
