/**
 * GET /v1/twins/{twin_id}/files (API document sections 2.6, 3.2 and 4.6; DESIGN.md section 3
 * "File listing page size", "Feature not enabled").
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, NO_TWINS_ACCOUNT, NO_TWINS_SECRET, testEmulator } from '../helpers.js';
import { digest, expectApiError, expectOk, file } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

const FILES = [
  file('scene.usd', 4096),
  file('Textures/wood.png', 2048),
  file('meshes/table.obj', 512),
  file('Meshes/chair.obj', 256),
  file('meta.json', 64),
];
const SORTED = [
  'Meshes/chair.obj',
  'Textures/wood.png',
  'meshes/table.obj',
  'meta.json',
  'scene.usd',
];

const item = (path: string) => ({ ...FILES.find((f) => f.path === path)!, object: 'twin_file' });

async function seedTwin(emu: Emu, body: Record<string, unknown>, account = DEFAULT_ACCOUNT) {
  return emu.control('POST', `/accounts/${account}/twins`, body);
}

/** The stand-in files `generate_files` makes: see src/world/seed.ts. */
function generated(twinId: string, i: number) {
  const content = `#usda 1.0\n# twin ${twinId}, part ${i}\n`;
  return {
    path: `scene/part_${String(i).padStart(5, '0')}.usd`,
    bytes: Buffer.byteLength(content),
    sha256: digest(content),
    object: 'twin_file',
  };
}

describe('GET /v1/twins/{twin_id}/files', () => {
  test('lists every file of a succeeded twin sorted by path in byte order', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', files: FILES });
    expect(twin.id).toMatch(/^twin_[0-9A-HJKMNP-TV-Z]{26}$/);
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: SORTED.map(item),
      has_more: false,
      next_cursor: null,
    });
  });

  test('pages with limit and after, the cursor being the last path of the page', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', files: FILES });
    const base = `/v1/twins/${twin.id}/files`;

    const first = await emu.api('GET', `${base}?limit=3`);
    expectOk(first, 200);
    expect(first.json).toEqual({
      object: 'list',
      data: SORTED.slice(0, 3).map(item),
      has_more: true,
      next_cursor: 'meshes/table.obj',
    });

    const last = await emu.api(
      'GET',
      `${base}?limit=3&after=${encodeURIComponent('meshes/table.obj')}`,
    );
    expectOk(last, 200);
    expect(last.json).toEqual({
      object: 'list',
      data: SORTED.slice(3).map(item),
      has_more: false,
      next_cursor: null,
    });
  });

  test('pages of 100 by default through generated files', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', generate_files: 250 });
    expect(twin).toMatchObject({ status: 'succeeded', file_count: 250 });
    const base = `/v1/twins/${twin.id}/files`;
    const seen: string[] = [];
    let after: string | null = null;
    for (const [count, hasMore] of [
      [100, true],
      [100, true],
      [50, false],
    ] as const) {
      const res = await emu.api('GET', after === null ? base : `${base}?after=${after}`);
      expectOk(res, 200);
      const from = seen.length;
      const data = Array.from({ length: count }, (_, i) => generated(twin.id, from + i));
      expect(res.json).toEqual({
        object: 'list',
        data,
        has_more: hasMore,
        next_cursor: hasMore ? data.at(-1)!.path : null,
      });
      seen.push(...data.map((f) => f.path));
      after = res.json.next_cursor;
    }
    expect(new Set(seen).size).toBe(250);
  });

  test('a twin seeded without files gets three generated ones', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded' });
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: [0, 1, 2].map((i) => generated(twin.id, i)),
      has_more: false,
      next_cursor: null,
    });
  });

  test('a twin with no files answers an empty list', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', generate_files: 0 });
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files`);
    expectOk(res, 200);
    expect(res.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test.each(['0', '1001', 'x'])(
    'limit=%s answers 400 parameter_invalid naming limit',
    async (limit) => {
      const emu = testEmulator();
      const twin = await seedTwin(emu, { status: 'succeeded', files: FILES });
      const res = await emu.api('GET', `/v1/twins/${twin.id}/files?limit=${limit}`);
      expectApiError(res, 400, 'parameter_invalid', 'limit');
    },
  );

  test.each(['1', '1000'])('limit=%s is accepted', async (limit) => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', files: FILES });
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files?limit=${limit}`);
    expectOk(res, 200);
    const n = Number(limit);
    expect(res.json).toEqual({
      object: 'list',
      data: SORTED.slice(0, n).map(item),
      has_more: n < SORTED.length,
      next_cursor: n < SORTED.length ? SORTED[n - 1] : null,
    });
  });

  test.each(['queued', 'processing', 'failed'])(
    'a %s twin answers 409 twin_not_ready',
    async (status) => {
      const emu = testEmulator();
      const twin = await seedTwin(emu, { status, files: FILES });
      const res = await emu.api('GET', `/v1/twins/${twin.id}/files`);
      const error = expectApiError(res, 409, 'twin_not_ready');
      expect(error.message).toContain(status);
    },
  );

  test('an account without the twins feature answers 403 feature_not_enabled', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', files: FILES }, NO_TWINS_ACCOUNT);
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files`, { secret: NO_TWINS_SECRET });
    const error = expectApiError(res, 403, 'feature_not_enabled');
    expect(error.details).toEqual({ feature: 'twins' });
  });

  test('the feature check comes before the lookup: an unknown twin answers 403 without the feature', async () => {
    const { api } = testEmulator();
    const res = await api('GET', `/v1/twins/twin_${'0'.repeat(26)}/files`, {
      secret: NO_TWINS_SECRET,
    });
    expectApiError(res, 403, 'feature_not_enabled');
  });

  test('a key without twins:read answers 403 missing_scope', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', files: FILES });
    const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
      name: 'evaluations only',
      scopes: ['evaluations:write'],
    });
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files`, { secret: key.secret });
    const error = expectApiError(res, 403, 'missing_scope');
    expect(error.details).toEqual({ required_scope: 'twins:read' });
  });

  test('a key with only twins:read lists the files', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', files: FILES });
    const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
      name: 'twins reader',
      scopes: ['twins:read'],
    });
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files?limit=1`, {
      secret: key.secret,
    });
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: [item('Meshes/chair.obj')],
      has_more: true,
      next_cursor: 'Meshes/chair.obj',
    });
  });

  test('an unknown twin answers 404 resource_not_found naming twin_id', async () => {
    const { api } = testEmulator();
    const res = await api('GET', `/v1/twins/twin_${'0'.repeat(26)}/files`);
    expectApiError(res, 404, 'resource_not_found', 'twin_id');
  });

  test("another account's twin answers 404 resource_not_found", async () => {
    const emu = testEmulator();
    const other = await emu.control('POST', '/accounts', { features: ['twins'] });
    const twin = await seedTwin(emu, { status: 'succeeded', files: FILES }, other.account.id);
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files`);
    expectApiError(res, 404, 'resource_not_found', 'twin_id');
    const own = await emu.api('GET', `/v1/twins/${twin.id}/files`, { secret: other.key.secret });
    expectOk(own, 200);
    expect(own.json.data).toHaveLength(5);
  });
});
