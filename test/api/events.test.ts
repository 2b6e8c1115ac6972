/**
 * `GET /v1/events` and `GET /v1/events/{event_id}` (inferred, DESIGN.md section 3): paging,
 * filters, scope, accounts, reset and --strict.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, expectError, servedDocument, testEmulator } from '../helpers.js';

const SPEC = { path: 'specs/pick.yaml', name: 'pick' };

/** Two default runs and a twin, driven to their end: 8 events on the default account. */
async function world(options: Parameters<typeof testEmulator>[0] = {}) {
  const emu = testEmulator(options);
  const first = (await emu.api('POST', '/v1/evaluations', { body: { spec: SPEC } })).json;
  const second = (await emu.api('POST', '/v1/evaluations', { body: { spec: SPEC } })).json;
  const twin = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {});
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 5 });
  const all = (await emu.api('GET', '/v1/events?limit=100')).json.data;
  return { ...emu, first, second, twin, all };
}

type OpenApiDoc = {
  paths: Record<string, Record<string, Record<string, unknown>> | undefined>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const ids = (page: { data: { id: string }[] }) => page.data.map((e) => e.id);

describe('GET /v1/events', () => {
  test('newest first, cursor-paged by event id', async () => {
    const { api, all } = await world();
    expect(all.map((e: { type: string }) => e.type)).toEqual([
      'twin.succeeded',
      'evaluation.succeeded',
      'evaluation.succeeded',
      'twin.processing',
      'evaluation.processing',
      'evaluation.processing',
      'evaluation.queued',
      'evaluation.queued',
    ]);
    const first = await api('GET', '/v1/events?limit=3');
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      object: 'list',
      data: all.slice(0, 3),
      has_more: true,
      next_cursor: all[2].id,
    });
    const second = await api('GET', `/v1/events?limit=3&after=${all[2].id}`);
    expect(second.json).toEqual({
      object: 'list',
      data: all.slice(3, 6),
      has_more: true,
      next_cursor: all[5].id,
    });
    const last = await api('GET', `/v1/events?limit=3&after=${all[5].id}`);
    expect(last.json).toEqual({
      object: 'list',
      data: all.slice(6),
      has_more: false,
      next_cursor: null,
    });
    // The default page size is 20.
    expect((await api('GET', '/v1/events')).json.data).toEqual(all);
  });

  test('filters by exact type, by resource prefix and by resource id, with the cursor', async () => {
    const { api, all, first, twin } = await world();
    const succeeded = await api('GET', '/v1/events?type=evaluation.succeeded');
    expect(succeeded.json.data).toEqual(
      all.filter((e: { type: string }) => e.type === 'evaluation.succeeded'),
    );
    const twins = await api('GET', '/v1/events?type=twin.*');
    expect(ids(twins.json)).toEqual([all[0].id, all[3].id]);
    const evaluations = await api('GET', '/v1/events?type=evaluation.*&limit=2');
    expect(ids(evaluations.json)).toEqual([all[1].id, all[2].id]);
    const rest = await api('GET', `/v1/events?type=evaluation.*&after=${all[2].id}`);
    expect(ids(rest.json)).toEqual([all[4].id, all[5].id, all[6].id, all[7].id]);

    const ofFirst = await api('GET', `/v1/events?resource=${first.id}`);
    expect(ofFirst.json.data.map((e: { type: string }) => e.type)).toEqual([
      'evaluation.succeeded',
      'evaluation.processing',
      'evaluation.queued',
    ]);
    for (const e of ofFirst.json.data) expect(e.data.object.id).toBe(first.id);
    const both = await api('GET', `/v1/events?resource=${twin.id}&type=twin.processing`);
    expect(ids(both.json)).toEqual([all[3].id]);
    expect((await api('GET', '/v1/events?resource=eval_nope')).json).toEqual({
      object: 'list',
      data: [],
      has_more: false,
      next_cursor: null,
    });
  });

  test("an after that is not one of the account's events, and bad filters, answer 400", async () => {
    const { api, control, all } = await world();
    expectError(await api('GET', '/v1/events?after=evt_nope'), 400, 'parameter_invalid', 'after');
    const other = await control('POST', '/accounts', {});
    expectError(
      await api('GET', `/v1/events?after=${all[0].id}`, { secret: other.key.secret }),
      400,
      'parameter_invalid',
      'after',
    );
    expectError(await api('GET', '/v1/events?type=evaluation'), 400, 'parameter_invalid', 'type');
    expectError(await api('GET', '/v1/events?type=*'), 400, 'parameter_invalid', 'type');
    expectError(await api('GET', '/v1/events?limit=0'), 400, 'parameter_invalid', 'limit');
    expectError(await api('GET', '/v1/events?limit=101'), 400, 'parameter_invalid', 'limit');
  });

  test('needs webhooks:read (webhooks:write implies it)', async () => {
    const { api, control } = testEmulator();
    const key = (scopes: string[]) =>
      control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, { name: 'k', scopes });
    const narrow = await key(['evaluations:read', 'evaluations:write']);
    const err = expectError(
      await api('GET', '/v1/events', { secret: narrow.secret }),
      403,
      'missing_scope',
    );
    expect(err.details).toEqual({ required_scope: 'webhooks:read' });
    expect((await api('GET', '/v1/events/evt_x', { secret: narrow.secret })).status).toBe(403);
    const writer = await key(['webhooks:write']);
    expect((await api('GET', '/v1/events', { secret: writer.secret })).status).toBe(200);
  });

  test("events are per account: another account's list has none of them", async () => {
    const { api, control, all } = await world();
    const other = await control('POST', '/accounts', {});
    expect(all).toHaveLength(8);
    expect((await api('GET', '/v1/events', { secret: other.key.secret })).json.data).toEqual([]);
    await api('POST', '/v1/evaluations', { body: { spec: SPEC }, secret: other.key.secret });
    const theirs = await api('GET', '/v1/events', { secret: other.key.secret });
    expect(theirs.json.data.map((e: { type: string }) => e.type)).toEqual(['evaluation.queued']);
    expect((await api('GET', '/v1/events?limit=100')).json.data).toEqual(all);
  });

  test("a one-account reset removes the account's events, and the same requests give the same ids", async () => {
    const emu = await world();
    const other = await emu.control('POST', '/accounts', {});
    const create = () =>
      emu.api('POST', '/v1/evaluations', { body: { spec: SPEC }, secret: other.key.secret });
    const theirs = () => emu.api('GET', '/v1/events', { secret: other.key.secret });
    await create();
    const before = (await theirs()).json.data;

    await emu.control('POST', '/reset', { account: DEFAULT_ACCOUNT });
    expect((await emu.api('GET', '/v1/events')).json.data).toEqual([]);
    expect((await theirs()).json.data).toEqual(before);

    await emu.control('POST', '/reset', { account: other.account.id });
    expect((await theirs()).json.data).toEqual([]);
    await create();
    expect((await theirs()).json.data).toEqual(before);
  });
});

describe('GET /v1/events/{event_id}', () => {
  test("answers the event, and 404 for an unknown id or another account's", async () => {
    const { api, control, all } = await world();
    for (const e of all) {
      const res = await api('GET', `/v1/events/${e.id}`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual(e);
    }
    const other = await control('POST', '/accounts', {});
    expectError(
      await api('GET', `/v1/events/${all[0].id}`, { secret: other.key.secret }),
      404,
      'resource_not_found',
      'event_id',
    );
    expectError(await api('GET', '/v1/events/evt_nope'), 404, 'resource_not_found', 'event_id');
  });
});

test('--strict serves neither route, and /openapi.json lists them only without it', async () => {
  const strict = testEmulator({ strict: true });
  expectError(await strict.api('GET', '/v1/events'), 404, 'resource_not_found');
  expectError(await strict.api('GET', '/v1/events/evt_x'), 404, 'resource_not_found');
  const strictDoc = (await servedDocument('/openapi.json', { strict: true })) as OpenApiDoc;
  expect(strictDoc.paths['/v1/events']).toBeUndefined();

  const doc = (await servedDocument()) as OpenApiDoc;
  expect(doc.paths['/v1/events']?.get).toMatchObject({
    operationId: 'listEvents',
    'x-inferred': true,
    'x-required-scope': 'webhooks:read',
  });
  expect(doc.paths['/v1/events/{event_id}']?.get).toMatchObject({
    operationId: 'getEvent',
    'x-inferred': true,
  });
  expect(doc.components.schemas.Event?.['x-inferred']).toBe(true);
});
