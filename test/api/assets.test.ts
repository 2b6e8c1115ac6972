/**
 * POST, GET, DELETE /v1/environments and /v1/objects (inferred: API document 4.8 "not shown";
 * DESIGN.md section 7): `validating` for 2 virtual seconds, then `validated` or `rejected`; only
 * validated ids are accepted by POST /v1/scenarios.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, NO_TWINS_SECRET, testEmulator } from '../helpers.js';
import { expectApiError, expectOk, T0 } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

const advance = (emu: Emu, ms: number) =>
  emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: ms / 1000 });

const ids = (res: { json: { data: { id: string }[] } }) => res.json.data.map((a) => a.id);

describe.each([
  ['environments', 'environment', /^env_[0-9A-HJKMNP-TV-Z]{26}$/],
  ['objects', 'object', /^obj_[0-9A-HJKMNP-TV-Z]{26}$/],
] as const)('/v1/%s', (plural, kind, idPattern) => {
  test('create, get, list, delete', async () => {
    const emu = testEmulator();
    const created = await emu.api('POST', `/v1/${plural}`, {
      body: { name: 'mine', description: 'd', metadata: { k: 'v' } },
    });
    expectOk(created, 201);
    expect(created.json).toEqual({
      id: expect.stringMatching(idPattern),
      object: kind,
      name: 'mine',
      description: 'd',
      metadata: { k: 'v' },
      status: 'validating',
      created_at: T0,
    });
    const id = created.json.id;
    const got = await emu.api('GET', `/v1/${plural}/${id}`);
    expectOk(got, 200);
    expect(got.json).toEqual(created.json);

    const second = await emu.api('POST', `/v1/${plural}`, { body: { name: 'two' } });
    const list = await emu.api('GET', `/v1/${plural}`);
    expectOk(list, 200);
    expect(ids(list)).toEqual([second.json.id, id]);
    const page = await emu.api('GET', `/v1/${plural}?limit=1`);
    expect(page.json.has_more).toBe(true);
    const rest = await emu.api('GET', `/v1/${plural}?after=${page.json.next_cursor}`);
    expect(ids(rest)).toEqual([id]);

    const del = await emu.api('DELETE', `/v1/${plural}/${id}`);
    expectOk(del, 200);
    expect(del.json).toEqual({ id, object: kind, deleted: true });
    expectApiError(
      await emu.api('GET', `/v1/${plural}/${id}`),
      404,
      'resource_not_found',
      `${kind}_id`,
    );
    expectApiError(
      await emu.api('DELETE', `/v1/${plural}/${id}`),
      404,
      'resource_not_found',
      `${kind}_id`,
    );
  });

  test('the clock moves it from validating to validated, or rejected when asked', async () => {
    const emu = testEmulator();
    const ok = await emu.api('POST', `/v1/${plural}`, { body: { name: 'ok' } });
    const bad = await emu.api('POST', `/v1/${plural}`, {
      body: { name: 'bad', options: { emulator: { reject: true } } },
    });
    await advance(emu, 1999);
    const still = await emu.api('GET', `/v1/${plural}/${ok.json.id}`);
    expect(still.json.status).toBe('validating');
    await advance(emu, 1);
    expect((await emu.api('GET', `/v1/${plural}/${ok.json.id}`)).json.status).toBe('validated');
    expect((await emu.api('GET', `/v1/${plural}/${bad.json.id}`)).json.status).toBe('rejected');
    const validated = await emu.api('GET', `/v1/${plural}?status=validated`);
    expect(ids(validated)).toEqual([ok.json.id]);
    const rejected = await emu.api('GET', `/v1/${plural}?status=rejected`);
    expect(ids(rejected)).toEqual([bad.json.id]);
  });

  test("another account's id is unknown; bad input answers 400; scopes apply", async () => {
    const emu = testEmulator();
    const theirs = await emu.api('POST', `/v1/${plural}`, {
      body: { name: 'theirs' },
      secret: NO_TWINS_SECRET,
    });
    expectOk(theirs, 201);
    const path = `/v1/${plural}/${theirs.json.id}`;
    expectApiError(await emu.api('GET', path), 404, 'resource_not_found', `${kind}_id`);
    expectApiError(await emu.api('DELETE', path), 404, 'resource_not_found', `${kind}_id`);
    const cursor = await emu.api('GET', `/v1/${plural}?after=${theirs.json.id}`);
    expectApiError(cursor, 400, 'parameter_invalid', 'after');
    const noName = await emu.api('POST', `/v1/${plural}`, { body: { name: '' } });
    expectApiError(noName, 400, 'parameter_invalid', 'name');
    const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
      name: 'read only',
      scopes: ['scenarios:read'],
    });
    expectOk(await emu.api('GET', `/v1/${plural}`, { secret: key.secret }), 200);
    const denied = await emu.api('POST', `/v1/${plural}`, {
      body: { name: 'x' },
      secret: key.secret,
    });
    expectApiError(denied, 403, 'missing_scope');
  });
});

test('a scenario naming a validating environment answers 400, then 201 once validated', async () => {
  const emu = testEmulator();
  const env = await emu.api('POST', '/v1/environments', { body: { name: 'kitchen' } });
  const body = { robot: 'franka_panda', task: 'push', environment: env.json.id };
  const early = await emu.api('POST', '/v1/scenarios', { body });
  expectApiError(early, 400, 'parameter_invalid', 'environment');
  await advance(emu, 2000);
  const later = await emu.api('POST', '/v1/scenarios', { body });
  expectOk(later, 201);
  expect(later.json.environment).toBe(env.json.id);
});

test('seeded pending and failed assets read as validating and rejected', async () => {
  const emu = testEmulator();
  const seed = (status: string) =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/objects`, { name: status, status });
  const pending = await seed('pending');
  const failed = await seed('failed');
  expect((await emu.api('GET', `/v1/objects/${pending.id}`)).json.status).toBe('validating');
  expect((await emu.api('GET', `/v1/objects/${failed.id}`)).json.status).toBe('rejected');
  const validating = await emu.api('GET', '/v1/objects?status=validating');
  expect(ids(validating)).toEqual([pending.id]);
});

test('under --strict none of the environment and object operations is served', async () => {
  const emu = testEmulator({ strict: true });
  for (const [method, path] of [
    ['POST', '/v1/environments'],
    ['GET', '/v1/environments'],
    ['GET', '/v1/environments/env_x'],
    ['DELETE', '/v1/objects/obj_x'],
    ['POST', '/v1/objects'],
  ] as const) {
    const res = await emu.api(method, path, {
      body: method === 'POST' ? { name: 'x' } : undefined,
    });
    expectApiError(res, 404, 'resource_not_found');
  }
});
