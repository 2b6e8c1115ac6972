import { describe, expect, test } from 'vitest';
import {
  DEFAULT_ACCOUNT,
  expectError,
  NO_TWINS_ACCOUNT,
  NO_TWINS_SECRET,
  servedDocument,
  testEmulator,
} from '../../../test/helpers.js';
import { SPEC, withAccount } from '../../../test/with-account.js';

describe('the request journal', () => {
  test('records every product call with its route, outcome, caller and times', async () => {
    const { api, control } = testEmulator();
    const ok = await api('GET', '/v1/keys/me');
    const bad = await api('GET', '/v1/sim_runs/eval_nope/logs');
    await api('GET', '/v1/keys/me', { secret: null });
    await api('GET', '/v1/no/such/route');
    await control('GET', '/faults'); // the control API is not journaled
    const { data, has_more } = await control('GET', '/requests');
    expect(has_more).toBe(false);
    expect(data).toHaveLength(4);
    expect(data[0]).toEqual({
      request_id: ok.headers.get('x-request-id'),
      method: 'GET',
      path: '/v1/keys/me',
      route: '/v1/keys/me',
      operation: 'getCurrentKey',
      status: 200,
      code: null,
      account_id: DEFAULT_ACCOUNT,
      key_id: ok.json.id,
      fault_id: null,
      idempotent_replayed: false,
      at: '2026-01-01T00:00:00.000Z',
      wall_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      duration_ms: expect.any(Number),
      idempotency_key: null,
      body_digest: null,
      retry_after: null,
      fault_after: false,
      work_status: null,
      hang_ms: null,
      client_closed: false,
      resource_id: null,
    });
    expect(data[1]).toMatchObject({
      request_id: bad.headers.get('x-request-id'),
      route: '/v1/sim_runs/{run_id}/logs',
      operation: 'getSimRunLogs',
      status: 404,
      code: 'resource_not_found',
    });
    expect(data[2]).toMatchObject({ status: 401, code: 'unauthenticated', account_id: null });
    expect(data[3]).toMatchObject({ route: null, operation: null, status: 404 });
  });

  test('only product calls: the pages, documents and other paths are not journaled nor counted', async () => {
    const { api, control } = testEmulator();
    // What a browser on the docs page asks for, and a path outside the API.
    for (const path of [
      '/',
      '/docs',
      '/docs/assets/swagger-ui-dist/swagger-ui.css',
      '/openapi.json',
      '/favicon.ico',
      '/robots.txt',
      '/evaluations',
    ])
      await api('GET', path, { secret: null });
    const unknown = await api('GET', '/v1/no/such/route');
    const { data } = await control('GET', '/requests');
    expect(data.map((e: { path: string }) => e.path)).toEqual(['/v1/no/such/route']);
    expect(data[0].request_id).toBe(unknown.headers.get('x-request-id'));
    const { summary } = await control('GET', '/coverage');
    expect(summary).toMatchObject({ calls: 0, unmatched_calls: 1 });
  });

  test('filters: method, route, operation, status, code, account, key, since', async () => {
    const a = await withAccount();
    await a.api('GET', '/v1/keys/me');
    await a.api('POST', '/v1/evaluations', { body: SPEC });
    await a.api('GET', '/v1/keys/me', { secret: NO_TWINS_SECRET });
    await a.advance(100);
    await a.call('GET', '/v1/evaluations');
    await a.call('GET', '/v1/evaluations/eval_nope');
    const q = async (query: string) =>
      (await a.control('GET', `/requests?${query}`)).data.map((e: { path: string }) => e.path);
    expect(await q('method=post')).toEqual(['/v1/evaluations']);
    expect(await q('route=/v1/evaluations/{run_id}')).toEqual(['/v1/evaluations/eval_nope']);
    expect(await q('operation=getCurrentKey')).toHaveLength(2);
    expect(await q('status=404')).toEqual(['/v1/evaluations/eval_nope']);
    expect(await q('code=resource_not_found')).toEqual(['/v1/evaluations/eval_nope']);
    expect(await q(`account=${NO_TWINS_ACCOUNT}`)).toEqual(['/v1/keys/me']);
    expect(await q(`key=${a.keyId}`)).toHaveLength(2);
    expect(await q('since=2026-01-01T00:01:00.000Z')).toEqual([
      '/v1/evaluations',
      '/v1/evaluations/eval_nope',
    ]);
    expect(await q('limit=1')).toEqual(['/v1/keys/me']);
  });

  test('DELETE clears it, all or what matches', async () => {
    const { api, control } = testEmulator();
    await api('GET', '/v1/keys/me');
    await api('GET', '/v1/evaluations');
    expect(await control('DELETE', '/requests?operation=getCurrentKey')).toEqual({ deleted: 1 });
    expect((await control('GET', '/requests')).data).toHaveLength(1);
    expect(await control('DELETE', '/requests')).toEqual({ deleted: 1 });
    expect((await control('GET', '/requests')).data).toEqual([]);
  });

  test('is bounded: the oldest entries go first', async () => {
    const { api, control } = testEmulator({ journalSize: 3 });
    const ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await api('GET', '/v1/keys/me')).headers.get('x-request-id'));
    }
    const { data } = await control('GET', '/requests');
    expect(data.map((e: { request_id: string }) => e.request_id)).toEqual(ids.slice(2));
  });

  test('size 0 keeps nothing', async () => {
    const { api, control } = testEmulator({ journalSize: 0 });
    await api('GET', '/v1/keys/me');
    expect((await control('GET', '/requests')).data).toEqual([]);
  });
});

describe('GET /v1/requests', () => {
  test("the caller's account's calls, newest first, cursor-paged", async () => {
    const a = await withAccount();
    const ids = [];
    for (let i = 0; i < 5; i++)
      ids.push((await a.call('GET', '/v1/keys/me')).headers.get('x-request-id'));
    await a.api('GET', '/v1/keys/me'); // another account
    const first = await a.call('GET', '/v1/requests?limit=2');
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      object: 'list',
      data: [
        {
          id: ids[4],
          object: 'request',
          method: 'GET',
          path: '/v1/keys/me',
          route: '/v1/keys/me',
          status: 200,
          error_code: null,
          key_id: a.keyId,
          idempotent_replayed: false,
          created_at: '2026-01-01T00:00:00.000Z',
        },
        expect.objectContaining({ id: ids[3] }),
      ],
      has_more: true,
      next_cursor: ids[3],
    });
    const second = await a.call('GET', `/v1/requests?limit=10&after=${ids[3]}`);
    // The first page's own call is journaled too, newest of all, so it is not after ids[3].
    expect(second.json.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(second.json).toMatchObject({ has_more: false, next_cursor: null });
  });

  test('only the last 30 virtual days', async () => {
    const a = await withAccount();
    await a.call('GET', '/v1/keys/me');
    await a.advance(30 * 86400 + 1);
    const res = await a.call('GET', '/v1/requests');
    expect(res.json.data).toEqual([]);
  });

  test('needs requests:read; an unknown cursor is 400', async () => {
    const a = await withAccount();
    const narrow = await a.control('POST', `/accounts/${a.accountId}/keys`, {
      name: 'narrow',
      scopes: ['evaluations:read'],
    });
    expectError(
      await a.call('GET', '/v1/requests', { secret: narrow.secret }),
      403,
      'missing_scope',
    );
    expectError(
      await a.call('GET', '/v1/requests?after=req_nope'),
      400,
      'parameter_invalid',
      'after',
    );
  });
});

describe('the route and operation of every product operation', () => {
  test('each operation of the served document is journaled under its own template', async () => {
    const { api, control } = testEmulator();
    const doc = (await servedDocument()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const expected: { path: string; route: string; operation: string }[] = [];
    for (const [route, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        // A fresh id in every parameter, as an SDK's calls have: no answer is cached.
        const path = route.replace(/\{[^}]+\}/g, `x${expected.length}`);
        await api(method.toUpperCase(), path);
        expected.push({ path, route, operation: op.operationId });
      }
    }
    // HEAD is served by the GET route.
    await api('HEAD', '/v1/keys/me');
    expected.push({ path: '/v1/keys/me', route: '/v1/keys/me', operation: 'getCurrentKey' });
    const { data } = await control('GET', '/requests?limit=1000');
    const seen = (data as { path: string; route: string; operation: string }[]).map(
      ({ path, route, operation }) => ({ path, route, operation }),
    );
    expect(expected.length).toBeGreaterThan(40);
    expect(seen).toEqual(expected);
  });
});
