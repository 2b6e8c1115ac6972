/**
 * The catalog area (inferred; API document section 1 "Catalog: Policies, hardware tiers,
 * dataset inspection", DESIGN.md section 7): the fixture as list envelopes with any valid key,
 * a dataset's inspection, and nothing of it under --strict.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { servedDocument, testEmulator } from '../helpers.js';
import { expectApiError, expectOk } from './support.js';

const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/catalog.json', import.meta.url), 'utf8'),
);

const LISTS = [
  ['robots', 'robot'],
  ['tasks', 'task'],
  ['environments', 'environment'],
  ['object_sets', 'object_set'],
  ['policies', 'policy'],
  ['hardware_tiers', 'hardware_tier'],
  ['datasets', 'dataset'],
] as const;

const PANDA = 'ds_01KA0000000000000000PANDA1';

describe('GET /v1/catalog/{area}', () => {
  test.each(LISTS)('%s answers the whole list as one page of %s objects', async (area, object) => {
    const { api } = testEmulator();
    const res = await api('GET', `/v1/catalog/${area}`);
    expectOk(res, 200);
    expect(res.json).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.json.data.map((d: { id: string }) => d.id)).toEqual(
      fixture[area].map((d: { id: string }) => d.id),
    );
    for (const item of res.json.data) expect(item.object).toBe(object);
  });

  test.each(LISTS)('%s without a key answers 401', async (area) => {
    const { api } = testEmulator();
    expectApiError(
      await api('GET', `/v1/catalog/${area}`, { secret: null }),
      401,
      'unauthenticated',
    );
  });

  test('policies, hardware tiers and environments show their fields', async () => {
    const { api } = testEmulator();
    const policies = (await api('GET', '/v1/catalog/policies')).json.data;
    expect(policies[0]).toEqual({
      id: 'pol_01KA0000000000000000PANDA1',
      object: 'policy',
      name: 'Panda pick-and-place baseline',
      robot: 'franka_panda',
      created_at: '2026-01-01T00:00:00.000Z',
      source_run: null,
    });
    const tiers = (await api('GET', '/v1/catalog/hardware_tiers')).json.data;
    expect(tiers.map((t: { id: string }) => t.id)).toEqual(['cpu-small', 'gpu-a10', 'gpu-h100']);
    expect(tiers[1].capacity).toEqual({ concurrent_runs: 8, tokens_per_minute: 60 });
    const envs = (await api('GET', '/v1/catalog/environments')).json.data;
    expect(envs[0]).toEqual({ id: 'tabletop_basic', object: 'environment', default: true });
    expect(envs[1]).toEqual({ id: 'kitchen_counter', object: 'environment', default: false });
  });

  test('datasets list a summary with the episode count, not the episodes', async () => {
    const { api } = testEmulator();
    const [first] = (await api('GET', '/v1/catalog/datasets')).json.data;
    expect(first).toEqual({
      id: PANDA,
      object: 'dataset',
      name: 'Panda tabletop pick-and-place',
      robot: 'franka_panda',
      fps: 30,
      cameras: ['wrist', 'front'],
      episode_count: 3,
    });
  });

  test('a key with only usage:read reads the catalog (no scope needed)', async () => {
    const { api, control } = testEmulator();
    const key = await control('POST', '/accounts/acct_00000000000000000000000001/keys', {
      name: 'usage only',
      scopes: ['usage:read'],
    });
    expectOk(await api('GET', '/v1/catalog/policies', { secret: key.secret }), 200);
  });
});

describe('GET /v1/catalog/datasets/{dataset_id}', () => {
  test('inspects a dataset: episodes, cameras, fps', async () => {
    const { api } = testEmulator();
    const res = await api('GET', `/v1/catalog/datasets/${PANDA}`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      id: PANDA,
      object: 'dataset',
      name: 'Panda tabletop pick-and-place',
      robot: 'franka_panda',
      fps: 30,
      cameras: ['wrist', 'front'],
      episode_count: 3,
      episodes: [
        { index: 0, duration_s: 12.4 },
        { index: 1, duration_s: 10.9 },
        { index: 2, duration_s: 13.1 },
      ],
    });
  });

  test('an unknown id answers 404 naming dataset_id', async () => {
    const { api } = testEmulator();
    const res = await api('GET', '/v1/catalog/datasets/ds_nope');
    const error = expectApiError(res, 404, 'resource_not_found', 'dataset_id');
    expect(error.message).toContain('ds_nope');
  });

  test('without a key answers 401', async () => {
    const { api } = testEmulator();
    const res = await api('GET', `/v1/catalog/datasets/${PANDA}`, { secret: null });
    expectApiError(res, 401, 'unauthenticated');
  });
});

describe('the catalog and --strict', () => {
  const paths = [...LISTS.map(([area]) => `/v1/catalog/${area}`), `/v1/catalog/datasets/${PANDA}`];

  test.each(paths)('under --strict, %s answers 404', async (path) => {
    const { api } = testEmulator({ strict: true });
    expectApiError(await api('GET', path), 404, 'resource_not_found');
  });

  test('every catalog operation is in /openapi.json, flagged x-inferred, tagged Catalog', async () => {
    const doc = async (strict: boolean) =>
      servedDocument('/openapi.json', { strict }) as Promise<{
        paths: Record<string, { get: Record<string, unknown> }>;
      }>;
    const served = await doc(false);
    const catalogPaths = Object.keys(served.paths).filter((p) => p.startsWith('/v1/catalog/'));
    expect(catalogPaths.sort()).toEqual(
      [...LISTS.map(([a]) => `/v1/catalog/${a}`), '/v1/catalog/datasets/{dataset_id}'].sort(),
    );
    for (const p of catalogPaths) {
      const op = served.paths[p]?.get;
      expect(op?.['x-inferred']).toBe(true);
      expect(op?.tags).toEqual(['Catalog']);
      expect(op?.['x-required-scope']).toBeUndefined();
    }
    const strict = await doc(true);
    expect(Object.keys(strict.paths).filter((p) => p.startsWith('/v1/catalog/'))).toEqual([]);
  });
});
