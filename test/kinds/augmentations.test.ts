/**
 * Augmentations on the run engine (inferred; API document sections 1, 7 and 8, DESIGN.md
 * section 7): created, advanced to succeeded, failed by a plan, resumed, canceled, downloaded.
 */
import { expect, test } from 'vitest';
import { expectApiError, expectOk } from '../api/support.js';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';
import { extractArchive, raw, sha256 } from '../runtime/support.js';

const PANDA = 'ds_01KA0000000000000000PANDA1';
const BODY = { dataset: PANDA, config: { episode_count: 3 } };
const AUG_ID = /^aug_[0-9A-HJKMNP-TV-Z]{26}$/;

function setup() {
  const emu = testEmulator();
  const advance = (seconds: number) =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });
  const create = async (body: Record<string, unknown> = BODY) => {
    const res = await emu.api('POST', '/v1/augmentations', { body });
    expectOk(res, 201);
    return res.json;
  };
  return { emu, advance, create };
}

test('a new augmentation answers 201 queued with every field, and reads back', async () => {
  const { emu, create } = setup();
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
  const read = await emu.api('GET', `/v1/augmentations/${aug.id}`);
  expectOk(read, 200);
  expect(read.json).toEqual(aug);
});

test('list answers newest first, filters by status, and refuses a cursor that is not one of its augmentations', async () => {
  const { emu, advance, create } = setup();
  const first = await create({ ...BODY, config: { episode_count: 1 } });
  await advance(10);
  const second = await create();
  const all = await emu.api('GET', '/v1/augmentations');
  expectOk(all, 200);
  expect(all.json.data.map((a: { id: string }) => a.id)).toEqual([second.id, first.id]);
  const done = await emu.api('GET', '/v1/augmentations?status=succeeded');
  expect(done.json.data.map((a: { id: string }) => a.id)).toEqual([first.id]);
  const page = await emu.api('GET', `/v1/augmentations?limit=1`);
  expect(page.json).toMatchObject({ has_more: true, next_cursor: second.id });
  const next = await emu.api('GET', `/v1/augmentations?limit=1&after=${second.id}`);
  expect(next.json.data.map((a: { id: string }) => a.id)).toEqual([first.id]);
  const evaluation = await emu.api('POST', '/v1/evaluations', {
    body: { spec: { path: 'specs/a.py', name: 'a' } },
  });
  expectApiError(
    await emu.api('GET', `/v1/augmentations?after=${evaluation.json.id}`),
    400,
    'parameter_invalid',
    'after',
  );
});

test('the clock walks loading, generating, validating, packaging to succeeded; the archive extracts to its listing', async () => {
  const { emu, advance, create } = setup();
  const aug = await create();
  const { transitions } = await advance(10);
  expect(transitions.map((t: { to: string; phase: string }) => `${t.to}:${t.phase}`)).toEqual([
    'processing:loading',
    'processing:generating',
    'processing:validating',
    'processing:packaging',
    'succeeded:packaging',
  ]);
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
  expect(archive.status).toBe(200);
  expect(archive.bytes.length).toBe(done.download.bytes);
  expect(sha256(archive.bytes)).toBe(done.download.sha256);
  expect(archive.headers.get('etag')).toBe(`"${done.download.sha256}"`);

  const files = (await emu.api('GET', `/v1/augmentations/${aug.id}/files?limit=1000`)).json.data;
  const extracted = extractArchive(archive.bytes);
  expect([...extracted.keys()]).toEqual(files.map((f: { path: string }) => `${aug.id}/${f.path}`));
  for (const f of files) {
    const content = extracted.get(`${aug.id}/${f.path}`)!;
    expect({ path: f.path, bytes: content.length, sha256: sha256(content) }).toEqual({
      path: f.path,
      bytes: f.bytes,
      sha256: f.sha256,
    });
    expect(f.object).toBe('augmentation_file');
  }
  expect(files.map((f: { path: string }) => f.path)).toContain('episodes/0003/front.mp4');

  const logs = await emu.api('GET', `/v1/augmentations/${aug.id}/logs?limit=3`);
  expectOk(logs, 200);
  expect(logs.json.object).toBe('augmentation_logs');
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

test('an outcome plan fails it, refunds the rest, and a resume runs it again to success', async () => {
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
  expect(failed.tokens.refunded).toBeGreaterThan(0);
  expect(failed.tokens.refunded).toBeLessThan(failed.tokens.charged);
  expectApiError(await emu.api('GET', `/v1/augmentations/${aug.id}/files`), 409, 'run_not_ready');

  const resumed = await emu.api('POST', `/v1/augmentations/${aug.id}/resume`);
  expectOk(resumed, 202);
  expect(resumed.json).toMatchObject({ status: 'queued', error: null });
  await advance(10);
  const done = (await emu.api('GET', `/v1/augmentations/${aug.id}`)).json;
  expect(done).toMatchObject({ status: 'succeeded', episodes: { done: 4, total: 4 } });
  expectApiError(await emu.api('POST', `/v1/augmentations/${aug.id}/resume`), 409, 'not_resumable');
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

test('cancel takes a processing run to canceling, then canceled; a succeeded one answers 409', async () => {
  const { emu, advance, create } = setup();
  const aug = await create();
  await advance(1);
  const canceling = await emu.api('POST', `/v1/augmentations/${aug.id}/cancel`);
  expectOk(canceling, 202);
  expect(canceling.json.status).toBe('canceling');
  await advance(2);
  expect((await emu.api('GET', `/v1/augmentations/${aug.id}`)).json.status).toBe('canceled');
  const other = await create();
  await advance(10);
  expectApiError(
    await emu.api('POST', `/v1/augmentations/${other.id}/cancel`),
    409,
    'not_cancelable',
  );
});

test('ids of other kinds, unknown ids and keys without the scope are refused', async () => {
  const { emu, create } = setup();
  const evaluation = await emu.api('POST', '/v1/evaluations', {
    body: { spec: { path: 'specs/a.py', name: 'a' } },
  });
  for (const path of ['', '/files', '/logs', '/archive']) {
    expectApiError(
      await emu.api('GET', `/v1/augmentations/${evaluation.json.id}${path}`),
      404,
      'resource_not_found',
      'run_id',
    );
  }
  const aug = await create();
  expectApiError(
    await emu.api('GET', `/v1/evaluations/${aug.id}`),
    404,
    'resource_not_found',
    'run_id',
  );
  const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'evaluations only',
    scopes: ['evaluations:write'],
  });
  const denied = await emu.api('GET', `/v1/augmentations/${aug.id}`, { secret: key.secret });
  expectApiError(denied, 403, 'missing_scope');
  const reader = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'augmentations reader',
    scopes: ['augmentations:read'],
  });
  expectOk(await emu.api('GET', `/v1/augmentations/${aug.id}`, { secret: reader.secret }), 200);
  expectApiError(
    await emu.api('POST', '/v1/augmentations', { body: BODY, secret: reader.secret }),
    403,
    'missing_scope',
  );
});

test('operations poll it by id, and its events are augmentation.<status>', async () => {
  const { emu, advance, create } = setup();
  const aug = await create();
  await advance(10);
  const op = await emu.api('GET', `/v1/operations/${aug.id}`);
  expectOk(op, 200);
  expect(op.json).toEqual({
    id: aug.id,
    object: 'operation',
    kind: 'augmentation',
    status: 'succeeded',
    progress: 1,
    links: { self: `http://localhost/v1/augmentations/${aug.id}` },
  });
  const events = await emu.api('GET', `/v1/events?resource=${aug.id}`);
  expect(events.json.data.map((e: { type: string }) => e.type)).toEqual([
    'augmentation.succeeded',
    'augmentation.processing',
    'augmentation.queued',
  ]);
  expect(events.json.data[0].data.object).toMatchObject({ id: aug.id, object: 'augmentation' });
});

test('the same requests and clock moves give byte-identical bodies and archives', async () => {
  const run = async () => {
    const { emu, advance, create } = setup();
    const aug = await create({ ...BODY, config: { episode_count: 5, variations: ['textures'] } });
    await advance(10);
    const body = (await emu.api('GET', `/v1/augmentations/${aug.id}`)).text;
    const archive = await raw(emu, `/v1/augmentations/${aug.id}/archive`, {
      headers: { authorization: 'Bearer svc_test_emulator_default' },
    });
    return { body, archive: archive.bytes };
  };
  const [a, b] = [await run(), await run()];
  expect(a.body).toBe(b.body);
  expect(Buffer.compare(a.archive, b.archive)).toBe(0);
});

test('usage counts augmentations by status and sums their tokens with every other run', async () => {
  const { emu, advance, create } = setup();
  await create();
  await advance(10);
  await create({ ...BODY, config: { episode_count: 1 } });
  const usage = (await emu.api('GET', '/v1/usage')).json;
  expect(usage.augmentations).toEqual({
    total: 2,
    by_status: { queued: 1, processing: 0, canceling: 0, succeeded: 1, failed: 0, canceled: 0 },
  });
  expect(usage.tokens).toEqual({ charged: 17 + 9, refunded: 0, net: 26 });
});
