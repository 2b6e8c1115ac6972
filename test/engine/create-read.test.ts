/**
 * The run engine's create and reads, over every registered kind (DESIGN.md section 7, "The run
 * engine"): create, get, list and paging, 404 across accounts and kinds, 403 scope.
 */
import { describe, expect, test } from 'vitest';
import { REGISTERED_KINDS } from '../../src/kinds/index.js';
import { expectApiError, expectOk } from '../api/support.js';
import { DEFAULT_ACCOUNT } from '../helpers.js';
import {
  BASE,
  CREATE_BODIES,
  createBodyOf,
  END,
  KINDS,
  kindWorld,
  pathOf,
  type Registered,
  T0,
  ULID,
} from './support.js';

test('every registered kind has a minimal create body in test/engine/support.ts', () => {
  const missing = REGISTERED_KINDS.map(({ kind }) => kind.name).filter((n) => !CREATE_BODIES[n]);
  expect(missing, 'give the create request schema of each of these kinds an example').toEqual([]);
});

/** Another registered kind than this one. */
const otherOf = (registered: Registered) =>
  REGISTERED_KINDS.find(({ kind }) => kind.name !== registered.kind.name)!;

/** The kind's world that also serves another kind, for the tests that need another kind's run. */
const withOther = (registered: Registered) =>
  kindWorld(registered, { kinds: [registered, otherOf(registered)] });

/** A run of the other kind `withOther` serves, on the default account, seeded on the clock. */
async function otherKindRun(world: ReturnType<typeof kindWorld>, registered: Registered) {
  const other = otherOf(registered);
  const seeded = await world.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/runs`, {
    kind: other.kind.name,
    ...createBodyOf(other.kind.name),
  });
  return { id: seeded.id as string, scope: other.kind.scope };
}

describe.each(KINDS)('%s', (_name, registered) => {
  test('create answers 201 queued with the shared fields, charged its estimate, and GET reads it back', async () => {
    const w = kindWorld(registered);
    const before = await w.balance();
    const run = await w.create({ ...w.body, label: 'nightly', webhook_metadata: { build: '7' } });
    expect(run.id).toMatch(new RegExp(`^${w.kind.prefix}_${ULID}$`));
    expect(run).toMatchObject({
      object: w.kind.name,
      status: 'queued',
      phase: null,
      progress: 0,
      status_message: 'Queued',
      error: null,
      service_version: '2026-09-27',
      options: w.body.options ?? {},
      label: 'nightly',
      result: null,
      download: null,
      tokens: { charged: expect.any(Number), refunded: 0 },
      webhook_metadata: { build: '7' },
      created_at: T0,
      started_at: null,
      completed_at: null,
    });
    expect(run.links).toEqual({
      self: BASE + w.path('get', run.id),
      logs: BASE + w.path('logs', run.id),
      files: BASE + w.path('files', run.id),
      archive: BASE + w.path('archive', run.id),
    });
    expect(run.tokens.charged).toBeGreaterThan(0);
    expect(await w.balance()).toBe(before - run.tokens.charged);
    expect(await w.get(run.id)).toEqual(run);
    await w.advance(END);
    const plain = await w.create();
    expect(plain).toMatchObject({ label: null, webhook_metadata: null });
  });

  test('list answers newest first, each item as GET shows it, paged by limit and after', async () => {
    const w = kindWorld(registered);
    // Each run ends before the next is created: a kind may allow one active run per resource.
    const first = await w.create();
    await w.advance(END);
    const second = await w.create();
    await w.advance(END);
    const third = await w.create();
    const list = async (query: string) => {
      const res = await w.emu.api('GET', `${w.path('list')}${query}`);
      expectOk(res, 200);
      return res.json;
    };
    const all = await list('');
    expect(all).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(all.data).toEqual([
      await w.get(third.id),
      await w.get(second.id),
      await w.get(first.id),
    ]);
    expect(await list('?limit=2')).toMatchObject({ has_more: true, next_cursor: second.id });
    expect((await list('?limit=2')).data.map((r: { id: string }) => r.id)).toEqual([
      third.id,
      second.id,
    ]);
    const rest = await list(`?limit=2&after=${second.id}`);
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    expect(rest.data.map((r: { id: string }) => r.id)).toEqual([first.id]);
    const ids = async (query: string) => (await list(query)).data.map((r: { id: string }) => r.id);
    expect(await ids('?status=succeeded')).toEqual([second.id, first.id]);
    expect(await ids('?status=queued')).toEqual([third.id]);
    expect(await ids('?status=failed')).toEqual([]);
  });

  test("a cursor that is not one of the caller's runs of this kind answers 400 naming after", async () => {
    const w = withOther(registered);
    await w.create();
    const other = await otherKindRun(w, registered);
    for (const after of [`${w.kind.prefix}_${'0'.repeat(26)}`, other.id]) {
      const res = await w.emu.api('GET', `${w.path('list')}?after=${after}`);
      expectApiError(res, 400, 'parameter_invalid', 'after');
    }
  });

  test("an unknown id, another kind's id and another account's id answer 404 on every run route", async () => {
    const w = withOther(registered);
    const run = await w.create();
    const account = await w.emu.control('POST', '/accounts', {
      ...(w.kind.feature ? { features: [w.kind.feature] } : {}),
    });
    const stranger = account.key.secret as string;
    const other = await otherKindRun(w, registered);
    const calls = [
      ['GET', 'get'],
      ['POST', 'cancel'],
      ['POST', 'resume'],
      ['GET', 'files'],
      ['GET', 'logs'],
      ['GET', 'archive'],
    ] as const;
    const cases = [
      { id: `${w.kind.prefix}_${'0'.repeat(26)}`, secret: undefined },
      { id: other.id, secret: undefined },
      { id: run.id, secret: stranger },
    ];
    for (const { id, secret } of cases) {
      for (const [method, name] of calls) {
        const res = await w.emu.api(method, pathOf(registered, name, id), { secret });
        expectApiError(res, 404, 'resource_not_found', w.routes.idParam);
      }
    }
    // The stranger's cancel and resume left the run as it was.
    expect((await w.get(run.id)).status).toBe('queued');
  });

  test("a key without the kind's scope answers 403 missing_scope; read does not allow write", async () => {
    const w = withOther(registered);
    const run = await w.create();
    const other = await otherKindRun(w, registered);
    const key = async (scopes: string[]) =>
      (await w.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, { name: 'k', scopes }))
        .secret as string;
    const elsewhere = await key([`${other.scope}:read`, `${other.scope}:write`]);
    const reader = await key([`${w.kind.scope}:read`]);
    const denied = async (method: string, path: string, secret: string, verb: string) => {
      const body = method === 'POST' && path === w.path('create') ? w.body : undefined;
      const res = await w.emu.api(method, path, { secret, body });
      const error = expectApiError(res, 403, 'missing_scope');
      expect(error.details).toEqual({ required_scope: `${w.kind.scope}:${verb}` });
    };
    for (const name of ['get', 'files', 'logs', 'archive'] as const)
      await denied('GET', w.path(name, run.id), elsewhere, 'read');
    await denied('GET', w.path('list'), elsewhere, 'read');
    await denied('POST', w.path('create'), elsewhere, 'write');
    expectOk(await w.emu.api('GET', w.path('get', run.id), { secret: reader }), 200);
    expectOk(await w.emu.api('GET', w.path('list'), { secret: reader }), 200);
    await denied('POST', w.path('create'), reader, 'write');
    for (const name of ['cancel', 'resume'] as const)
      await denied('POST', w.path(name, run.id), reader, 'write');
  });
});
