/**
 * Twins' own rules (API document sections 1, 3.2 and 4.6; DESIGN.md section 7): their body,
 * parts, timeline, scene and archive contents, failure codes and request checks, the `twins`
 * feature, seeded twins and what `--strict` serves. What every kind shares (paging, cancel,
 * resume, archive digest, 404 under `twin_id`, scopes, events, determinism) is test/engine's.
 */
import { expect, test } from 'vitest';
import { expectApiError, expectOk } from '../../../test/api/support.js';
import {
  DEFAULT_ACCOUNT,
  DEFAULT_SECRET,
  NO_TWINS_SECRET,
  testEmulator,
} from '../../../test/helpers.js';
import { extractArchive, raw } from '../../../test/runtime/support.js';
import type { EmulatorOptions } from '../../emulator.js';
import { twins } from './index.js';

/** An emulator serving this kind only, as the kind's own tests need no other. */
const ownKind = (options: EmulatorOptions = {}) => testEmulator({ kinds: [twins], ...options });

const PANDA = 'ds_01KA0000000000000000PANDA1';
const ALOHA = 'ds_01KA0000000000000000ALOHA1';
const BODY = { dataset: PANDA, episode: 1 };
const TWIN_ID = /^twin_[0-9A-HJKMNP-TV-Z]{26}$/;
const T0 = '2026-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

function setup() {
  const emu = ownKind();
  const advance = async (seconds: number) =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });
  const create = async (body: Record<string, unknown> = BODY) => {
    const res = await emu.api('POST', '/v1/twins', { body });
    expectOk(res, 201);
    return res.json;
  };
  const get = async (id: string) => {
    const res = await emu.api('GET', `/v1/twins/${id}`);
    expectOk(res, 200);
    return res.json;
  };
  const archive = (id: string) =>
    raw(emu, `/v1/twins/${id}/archive`, { headers: { authorization: `Bearer ${DEFAULT_SECRET}` } });
  return { emu, advance, create, get, archive };
}

test('create answers 201 queued with every field of a twin, one part per started 5 s of the episode', async () => {
  const { create } = setup();
  const twin = await create({ ...BODY, label: 'kitchen', webhook_metadata: { build: 7 } });
  expect(twin.id).toMatch(TWIN_ID);
  expect(twin).toEqual({
    id: twin.id,
    object: 'twin',
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    dataset: PANDA,
    episode: 1,
    hardware_tier: 'gpu-a10',
    file_count: null,
    parts: { done: 0, total: 3 },
    error: null,
    service_version: '2026-09-27',
    options: {},
    label: 'kitchen',
    result: null,
    download: null,
    tokens: { charged: 4 + 2 * 3, refunded: 0 },
    webhook_metadata: { build: 7 },
    created_at: T0,
    started_at: null,
    completed_at: null,
    links: {
      self: `http://localhost/v1/twins/${twin.id}`,
      logs: `http://localhost/v1/twins/${twin.id}/logs`,
      files: `http://localhost/v1/twins/${twin.id}/files`,
      archive: `http://localhost/v1/twins/${twin.id}/archive`,
    },
  });
  // The scene has one part per started 5 s of the episode: 21.5 s, 5 parts.
  const long = await create({ dataset: ALOHA, episode: 0, hardware_tier: 'gpu-h100' });
  expect(long).toMatchObject({ hardware_tier: 'gpu-h100', parts: { done: 0, total: 5 } });
});

test('a built twin yields its scene: the result, file_count, one file per part, the scene and its log', async () => {
  const { emu, advance, create, get, archive } = setup();
  const twin = await create();
  await advance(10);
  const done = await get(twin.id);
  expect(done).toMatchObject({
    status: 'succeeded',
    phase: null,
    progress: 1,
    parts: { done: 3, total: 3 },
    file_count: 6,
    tokens: { charged: 10, refunded: 0 },
    started_at: at(1),
    completed_at: at(5),
  });
  expect(done.result).toEqual({
    scene: { path: 'scene/scene.usda', parts: 3 },
    dataset: PANDA,
    episode: 1,
  });

  const bytes = await archive(twin.id);
  const files = await emu.api('GET', `/v1/twins/${twin.id}/files`);
  expectOk(files, 200);
  const listing = files.json.data;
  expect(listing.map((f: { path: string }) => f.path)).toEqual([
    'logs/twin.log',
    'scene/part_00000.usd',
    'scene/part_00001.usd',
    'scene/part_00002.usd',
    'scene/scene.usda',
    'twin.json',
  ]);
  expect(listing).toHaveLength(done.file_count);
  const extracted = extractArchive(bytes.bytes);
  const scene = extracted.get(`${twin.id}/scene/scene.usda`)!.toString();
  expect(scene).toContain(`Twin of ${PANDA} episode 1`);
  expect(scene).toContain('@./part_00002.usd@');
  expect(JSON.parse(extracted.get(`${twin.id}/twin.json`)!.toString())).toMatchObject({
    ...done.result,
    robot: 'franka_panda',
    fps: 30,
    duration_s: 10.9,
  });

  const logs = await emu.api('GET', `/v1/twins/${twin.id}/logs`);
  expectOk(logs, 200);
  expect(logs.json.lines[0]).toMatch(/attempt 1 queued: scene of .* episode 1, 3 parts/);
  expect(logs.json.lines).toContain(`${at(3)} part 2/3 reconstructed: scene/part_00001.usd`);
  expect(logs.json.lines.at(-1)).toBe(`${at(5)} twin succeeded: scene/scene.usda with 3 parts`);
  const log = extracted.get(`${twin.id}/logs/twin.log`)!.toString();
  expect(log).toContain('phase reconstructing started');
});

test('reconstruction_failed fails it reconstructing at the part after after_episodes, refunding the rest', async () => {
  const { emu, advance, create, get } = setup();
  const twin = await create({
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'reconstruction_failed', after_episodes: 2 }] } },
  });
  await advance(10);
  const failed = await get(twin.id);
  expect(failed).toMatchObject({
    status: 'failed',
    phase: 'reconstructing',
    parts: { done: 2, total: 3 },
    file_count: null,
    error: {
      code: 'reconstruction_failed',
      resumable: true,
      param: null,
      details: { location: 'scene/part_00002.usd' },
    },
    result: null,
    download: null,
    completed_at: at(3.25),
  });
  // 2.25 s of a 4 s build consumed: 56% of the 10 tokens kept, the rest refunded.
  expect(failed.tokens).toEqual({ charged: 10, refunded: 10 - Math.round(10 * 0.5625) });
  expectOk(await emu.api('POST', `/v1/twins/${twin.id}/resume`), 202);
  await advance(10);
  expect(await get(twin.id)).toMatchObject({ status: 'succeeded', file_count: 6 });
});

test('episode_unreadable fails it extracting, naming episode, and is not resumable; interrupted is', async () => {
  const { emu, advance, create, get } = setup();
  const unreadable = await create({
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'episode_unreadable' }] } },
  });
  const interrupted = await create({
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'interrupted', at: 'validating' }] } },
  });
  await advance(10);
  expect(await get(unreadable.id)).toMatchObject({
    status: 'failed',
    phase: 'extracting',
    error: { code: 'episode_unreadable', resumable: false, param: 'episode' },
  });
  expectApiError(await emu.api('POST', `/v1/twins/${unreadable.id}/resume`), 409, 'not_resumable');
  expect(await get(interrupted.id)).toMatchObject({
    status: 'failed',
    phase: 'validating',
    error: { code: 'interrupted', resumable: true, details: { service_code: 'interrupted' } },
  });
  expectOk(await emu.api('POST', `/v1/twins/${interrupted.id}/resume`), 202);
});

test('an outcome plan naming a code or phase twins lack answers 400 naming it', async () => {
  const { emu } = setup();
  const plan = (outcomes: unknown[]) =>
    emu.api('POST', '/v1/twins', { body: { ...BODY, options: { emulator: { outcomes } } } });
  expectApiError(
    await plan([{ fail: 'generation_failed' }]),
    400,
    'parameter_invalid',
    'options.emulator.outcomes.0.fail',
  );
  expectApiError(
    await plan([{ succeed: {} }, { fail: 'interrupted', at: 'running' }]),
    400,
    'parameter_invalid',
    'options.emulator.outcomes.1.at',
  );
  expectApiError(
    await emu.api('POST', '/v1/twins', {
      body: { ...BODY, options: { emulator: { durations_s: { episode: 1 } } } },
    }),
    400,
    'parameter_invalid',
    'options.emulator.durations_s.episode',
  );
});

test('a twin canceled while reconstructing shows that phase while canceling, and ends with no file_count', async () => {
  const { emu, advance, create, get } = setup();
  const twin = await create();
  await advance(2.5);
  const canceling = await emu.api('POST', `/v1/twins/${twin.id}/cancel`);
  expectOk(canceling, 202);
  expect(canceling.json).toMatchObject({ status: 'canceling', phase: 'reconstructing' });
  await advance(5);
  const canceled = await get(twin.id);
  expect(canceled).toMatchObject({ status: 'canceled', file_count: null });
});

test('an unknown dataset, an episode the dataset lacks, or an unknown tier answers 400 naming the field', async () => {
  const { emu } = setup();
  const post = (body: Record<string, unknown>) => emu.api('POST', '/v1/twins', { body });
  expectApiError(await post({ ...BODY, dataset: 'ds_nope' }), 400, 'parameter_invalid', 'dataset');
  // PANDA has episodes 0 to 2; ALOHA 0 and 1.
  for (const body of [
    { dataset: PANDA, episode: 3 },
    { dataset: ALOHA, episode: 2 },
  ]) {
    const error = expectApiError(await post(body), 400, 'parameter_invalid', 'episode');
    expect(error.message).toContain(`no episode with index ${body.episode}`);
  }
  expectApiError(
    await post({ ...BODY, hardware_tier: 'tpu-v9' }),
    400,
    'parameter_invalid',
    'hardware_tier',
  );
});

test('the create body is checked field by field: types, required fields and unknown keys', async () => {
  const { emu } = setup();
  const post = (body: Record<string, unknown>) => emu.api('POST', '/v1/twins', { body });
  for (const [body, param] of [
    [{ episode: 0 }, 'dataset'],
    [{ dataset: PANDA }, 'episode'],
    [{ dataset: PANDA, episode: -1 }, 'episode'],
    [{ dataset: PANDA, episode: 1.5 }, 'episode'],
    [{ dataset: PANDA, episode: '1' }, 'episode'],
    [{ dataset: '', episode: 0 }, 'dataset'],
    [{ ...BODY, label: 'x'.repeat(201) }, 'label'],
    [{ ...BODY, parts: 3 }, 'parts'],
  ] as const) {
    expectApiError(await post(body), 400, 'parameter_invalid', param);
  }
});

test('an account without the twins feature answers 403 feature_not_enabled on every twin route', async () => {
  const { emu } = setup();
  const id = `twin_${'0'.repeat(26)}`;
  const routes: [string, string, unknown?][] = [
    ['POST', '/v1/twins', BODY],
    ['GET', '/v1/twins'],
    ['GET', `/v1/twins/${id}`],
    ['POST', `/v1/twins/${id}/cancel`],
    ['POST', `/v1/twins/${id}/resume`],
    ['GET', `/v1/twins/${id}/archive`],
    ['GET', `/v1/twins/${id}/files`],
    ['GET', `/v1/twins/${id}/logs`],
    ['GET', `/v1/operations/${id}`],
  ];
  for (const [method, path, body] of routes) {
    const res = await emu.api(method, path, { body, secret: NO_TWINS_SECRET });
    expect(expectApiError(res, 403, 'feature_not_enabled').details).toEqual({ feature: 'twins' });
  }
});

test('a twin seeded through the control API on the clock keeps its seeded listing and builds no archive', async () => {
  const { emu, advance, get } = setup();
  const files = [{ path: 'meshes/a.obj', bytes: 10, sha256: 'a'.repeat(64) }];
  const seeded = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, { files });
  expect(seeded).toEqual({
    id: expect.stringMatching(TWIN_ID),
    object: 'twin',
    status: 'queued',
    file_count: 1,
    created_at: T0,
  });
  await advance(5);
  const twin = await get(seeded.id);
  // Seeded twins are charged nothing, as they never were.
  expect(twin).toMatchObject({ status: 'succeeded', file_count: 1, download: null });
  expect(twin.tokens).toEqual({ charged: 0, refunded: 0 });
  const listing = await emu.api('GET', `/v1/twins/${seeded.id}/files`);
  expect(listing.json.data).toEqual([{ ...files[0], object: 'twin_file' }]);
  const archive = await emu.api('GET', `/v1/twins/${seeded.id}/archive`);
  expectApiError(archive, 404, 'resource_not_found', 'twin_id');
});

test('under --strict only the documented file listing of twins is served, and it is not flagged inferred', async () => {
  const emu = ownKind({ strict: true });
  const seeded = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {
    status: 'succeeded',
  });
  const files = await emu.api('GET', `/v1/twins/${seeded.id}/files`);
  expectOk(files, 200);
  expect(files.json.data).toHaveLength(3);
  for (const [method, path] of [
    ['POST', '/v1/twins'],
    ['GET', '/v1/twins'],
    ['GET', `/v1/twins/${seeded.id}`],
    ['POST', `/v1/twins/${seeded.id}/cancel`],
    ['POST', `/v1/twins/${seeded.id}/resume`],
    ['GET', `/v1/twins/${seeded.id}/archive`],
    ['GET', `/v1/twins/${seeded.id}/logs`],
  ] as const) {
    const body = method === 'POST' ? BODY : undefined;
    expectApiError(await emu.api(method, path, { body }), 404, 'resource_not_found');
  }
  const doc = (await (await emu.app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  expect(Object.keys(doc.paths).filter((p) => p.startsWith('/v1/twins'))).toEqual([
    '/v1/twins/{twin_id}/files',
  ]);
  const listing = doc.paths['/v1/twins/{twin_id}/files']!.get!;
  expect(listing.operationId).toBe('listTwinFiles');
  expect(listing['x-inferred']).toBeUndefined();
});

test('without --strict every twin route is in the document under twin_id, flagged inferred but the file listing', async () => {
  const { emu } = setup();
  const doc = (await (await emu.app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const ops = Object.entries(doc.paths)
    .filter(([p]) => p.startsWith('/v1/twins'))
    .flatMap(([p, methods]) =>
      Object.entries(methods).map(
        ([m, op]) => `${m} ${p} ${op.operationId} ${op['x-inferred'] ?? false}`,
      ),
    )
    .sort();
  expect(ops).toEqual([
    'get /v1/twins listTwins true',
    'get /v1/twins/{twin_id} getTwin true',
    'get /v1/twins/{twin_id}/archive getTwinArchive true',
    'get /v1/twins/{twin_id}/files listTwinFiles false',
    'get /v1/twins/{twin_id}/logs getTwinLogs true',
    'post /v1/twins createTwin true',
    'post /v1/twins/{twin_id}/cancel cancelTwin true',
    'post /v1/twins/{twin_id}/resume resumeTwin true',
  ]);
});
