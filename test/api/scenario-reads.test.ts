/**
 * GET /v1/scenarios, GET and DELETE /v1/scenarios/{scenario_id} (inferred: API document 4.8 "not
 * shown"; DESIGN.md section 7 "list built-in and own, get, delete"). Built-in scenarios come from
 * fixtures/catalog.json: one per task.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, NO_TWINS_SECRET, testEmulator } from '../helpers.js';
import { expectApiError, expectOk } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

/** One built-in scenario per task of the catalog the emulator loads, in catalog order. */
const catalog = JSON.parse(readFileSync('fixtures/catalog.json', 'utf8')) as {
  tasks: { id: string }[];
};
const BUILTIN_IDS = catalog.tasks.map((t) => `scn_builtin_${t.id}`);

async function create(emu: Emu, name: string) {
  const res = await emu.api('POST', '/v1/scenarios', {
    body: { robot: 'franka_panda', task: 'push', name },
  });
  expectOk(res, 201);
  return res.json;
}

async function keyWith(emu: Emu, scopes: string[]) {
  const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'limited',
    scopes,
  });
  return key.secret as string;
}

describe('scenarios: create, get, list, delete', () => {
  test('a created scenario reads back, lists after the built-ins, and deletes', async () => {
    const emu = testEmulator();
    const created = await create(emu, 'mine');
    expect(created.builtin).toBe(false);

    const got = await emu.api('GET', `/v1/scenarios/${created.id}`);
    expectOk(got, 200);
    expect(got.json).toEqual(created);

    const list = await emu.api('GET', '/v1/scenarios');
    expectOk(list, 200);
    expect(list.json.object).toBe('list');
    expect(list.json.data.map((s: { id: string }) => s.id)).toEqual([...BUILTIN_IDS, created.id]);
    expect(list.json.has_more).toBe(false);
    expect(list.json.next_cursor).toBeNull();

    const del = await emu.api('DELETE', `/v1/scenarios/${created.id}`);
    expectOk(del, 200);
    expect(del.json).toEqual({ id: created.id, object: 'scenario', deleted: true });
    const again = await emu.api('GET', `/v1/scenarios/${created.id}`);
    expectApiError(again, 404, 'resource_not_found', 'scenario_id');
    const twice = await emu.api('DELETE', `/v1/scenarios/${created.id}`);
    expectApiError(twice, 404, 'resource_not_found', 'scenario_id');
    const after = await emu.api('GET', '/v1/scenarios');
    expect(after.json.data.map((s: { id: string }) => s.id)).toEqual(BUILTIN_IDS);
  });

  test('a built-in scenario reads with its defaults resolved and cannot be deleted (409)', async () => {
    const emu = testEmulator();
    const got = await emu.api('GET', '/v1/scenarios/scn_builtin_push');
    expectOk(got, 200);
    expect(got.json).toMatchObject({
      id: 'scn_builtin_push',
      object: 'scenario',
      task: 'push',
      robot: 'franka_panda',
      embodiment: 'panda_gripper',
      environment: 'tabletop_basic',
      default_max_steps: 300,
      builtin: true,
    });
    const del = await emu.api('DELETE', '/v1/scenarios/scn_builtin_push');
    expectApiError(del, 409, 'builtin_scenario', 'scenario_id');
    expectOk(await emu.api('GET', '/v1/scenarios/scn_builtin_push'), 200);
  });

  test('pages with limit and an after cursor across built-ins and own, newest first', async () => {
    const emu = testEmulator();
    const a = await create(emu, 'a');
    const b = await create(emu, 'b');
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 50; page++) {
      const query: string = after ? `?limit=2&after=${after}` : '?limit=2';
      const res = await emu.api('GET', `/v1/scenarios${query}`);
      expectOk(res, 200);
      expect(res.json.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.json.data.map((s: { id: string }) => s.id));
      after = res.json.next_cursor;
      expect(res.json.has_more).toBe(after !== null);
      if (!after) break;
    }
    expect(seen).toEqual([...BUILTIN_IDS, b.id, a.id]);
  });

  test('a limit equal to the built-ins says has_more when own scenarios follow', async () => {
    const emu = testEmulator();
    const own = await create(emu, 'own');
    expect(BUILTIN_IDS.length).toBeGreaterThan(1);
    const first = await emu.api('GET', `/v1/scenarios?limit=${BUILTIN_IDS.length}`);
    expect(first.json.data.map((s: { id: string }) => s.id)).toEqual(BUILTIN_IDS);
    expect(first.json.has_more).toBe(true);
    const next = await emu.api('GET', `/v1/scenarios?after=${first.json.next_cursor}`);
    expect(next.json.data.map((s: { id: string }) => s.id)).toEqual([own.id]);
    expect(next.json.has_more).toBe(false);
  });

  test('bad limits and unknown cursors answer 400 naming the field', async () => {
    const emu = testEmulator();
    expectApiError(
      await emu.api('GET', '/v1/scenarios?limit=0'),
      400,
      'parameter_invalid',
      'limit',
    );
    expectApiError(
      await emu.api('GET', '/v1/scenarios?limit=101'),
      400,
      'parameter_invalid',
      'limit',
    );
    const res = await emu.api('GET', '/v1/scenarios?after=scn_nope');
    expectApiError(res, 400, 'parameter_invalid', 'after');
  });

  test("another account's scenario is unknown: 404 on get and delete, 400 as a cursor", async () => {
    const emu = testEmulator();
    const theirs = await emu.api('POST', '/v1/scenarios', {
      body: { robot: 'franka_panda', task: 'push' },
      secret: NO_TWINS_SECRET,
    });
    expectOk(theirs, 201);
    const id = theirs.json.id;
    expectApiError(
      await emu.api('GET', `/v1/scenarios/${id}`),
      404,
      'resource_not_found',
      'scenario_id',
    );
    expectApiError(
      await emu.api('DELETE', `/v1/scenarios/${id}`),
      404,
      'resource_not_found',
      'scenario_id',
    );
    expectApiError(
      await emu.api('GET', `/v1/scenarios?after=${id}`),
      400,
      'parameter_invalid',
      'after',
    );
    const mine = await emu.api('GET', '/v1/scenarios');
    expect(mine.json.data.map((s: { id: string }) => s.id)).toEqual(BUILTIN_IDS);
  });

  test('reads need scenarios:read, delete needs scenarios:write (write implies read)', async () => {
    const emu = testEmulator();
    const created = await create(emu, 'x');
    const none = await keyWith(emu, ['twins:read']);
    const read = await keyWith(emu, ['scenarios:read']);
    const write = await keyWith(emu, ['scenarios:write']);
    const get = `/v1/scenarios/${created.id}`;
    expectApiError(await emu.api('GET', '/v1/scenarios', { secret: none }), 403, 'missing_scope');
    expectApiError(await emu.api('GET', get, { secret: none }), 403, 'missing_scope');
    expectOk(await emu.api('GET', get, { secret: read }), 200);
    expectApiError(await emu.api('DELETE', get, { secret: read }), 403, 'missing_scope');
    expectOk(await emu.api('GET', '/v1/scenarios', { secret: write }), 200);
    expectOk(await emu.api('DELETE', get, { secret: write }), 200);
  });

  test('under --strict only POST /v1/scenarios is served', async () => {
    const emu = testEmulator({ strict: true });
    const created = await create(emu, 'strict');
    expectApiError(await emu.api('GET', '/v1/scenarios'), 404, 'resource_not_found');
    expectApiError(await emu.api('GET', `/v1/scenarios/${created.id}`), 404, 'resource_not_found');
    expectApiError(
      await emu.api('DELETE', `/v1/scenarios/${created.id}`),
      404,
      'resource_not_found',
    );
  });
});
