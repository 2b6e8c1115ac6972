import { serve } from '@hono/node-server';
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_ACCOUNT,
  DEFAULT_SECRET,
  expectError,
  NO_TWINS_ACCOUNT,
  NO_TWINS_SECRET,
  testEmulator,
} from '../../../test/helpers.js';

const SPEC = { spec: { path: 'sdk/spec.yaml', name: 'pick-place' } };

describe('fault rules', () => {
  const DEFAULT_CODES: [number, string][] = [
    [400, 'parameter_invalid'],
    [401, 'unauthenticated'],
    [402, 'insufficient_tokens'],
    [403, 'missing_scope'],
    [404, 'resource_not_found'],
    [409, 'idempotency_key_reused'],
    [413, 'request_too_large'],
    [429, 'rate_limit_exceeded'],
    [500, 'api_error'],
    [502, 'launch_failed'],
    [503, 'api_error'],
    [504, 'api_error'],
  ];

  test.each(DEFAULT_CODES)('status %i answers the envelope with code %s', async (status, code) => {
    const { api, control } = testEmulator();
    const rule = await control('POST', '/faults', {
      match: { operation: 'getCurrentKey' },
      respond: { status },
    });
    expect(rule).toMatchObject({ object: 'fault_rule', hits: 0, remaining: null, times: null });
    const res = await api('GET', '/v1/keys/me');
    expectError(res, status, code);
    expect(res.headers.get('retry-after')).toBe(status === 429 ? '1' : null);
    const [listed] = (await control('GET', '/faults')).data;
    expect(listed).toMatchObject({ id: rule.id, hits: 1, remaining: null });
  });

  test('429 codes with Retry-After, 502 launch_failed, and a message, param and details', async () => {
    const { api, control } = testEmulator();
    await control('POST', '/faults', {
      match: { method: 'post', route: '/v1/evaluations' },
      respond: { status: 429, code: 'concurrency_limit_exceeded', retry_after: 7 },
      times: 1,
    });
    await control('POST', '/faults', {
      match: { operation: 'createEvaluation' },
      respond: { status: 429, code: 'capacity_exceeded', retry_after: 30 },
      times: 1,
    });
    await control('POST', '/faults', {
      match: { operation: 'createEvaluation' },
      respond: {
        status: 502,
        message: 'The launcher is down.',
        param: 'spec',
        details: { upstream: 'launcher' },
      },
      times: 1,
    });
    const first = await api('POST', '/v1/evaluations', { body: SPEC });
    expectError(first, 429, 'concurrency_limit_exceeded');
    expect(first.headers.get('retry-after')).toBe('7');
    const second = await api('POST', '/v1/evaluations', { body: SPEC });
    expectError(second, 429, 'capacity_exceeded');
    expect(second.headers.get('retry-after')).toBe('30');
    const third = await api('POST', '/v1/evaluations', { body: SPEC });
    const body = expectError(third, 502, 'launch_failed', 'spec');
    expect(body).toMatchObject({
      message: 'The launcher is down.',
      details: { upstream: 'launcher' },
    });
    expect(third.headers.get('retry-after')).toBeNull();
    expect((await api('POST', '/v1/evaluations', { body: SPEC })).status).toBe(201);
  });

  test("409 answers the operation's own conflict code", async () => {
    const { api, control } = testEmulator();
    await control('POST', '/faults', { respond: { status: 409 } });
    const id = 'eval_00000000000000000000000000';
    expectError(await api('POST', `/v1/evaluations/${id}/resume`), 409, 'not_resumable');
    expectError(await api('POST', `/v1/evaluations/${id}/cancel`), 409, 'not_cancelable');
    expectError(await api('GET', `/v1/sim_runs/${id}/files`), 409, 'run_not_ready');
    expectError(await api('GET', '/v1/twins/twin_x/files'), 409, 'twin_not_ready');
  });

  test('a faulted call has no effect on state', async () => {
    const { api, control } = testEmulator();
    const before = await control('GET', `/accounts/${DEFAULT_ACCOUNT}`);
    await control('POST', '/faults', {
      match: { operation: 'createEvaluation' },
      respond: { status: 500 },
    });
    expectError(await api('POST', '/v1/evaluations', { body: SPEC }), 500, 'api_error');
    expect((await api('GET', '/v1/evaluations')).json.data).toEqual([]);
    const after = await control('GET', `/accounts/${DEFAULT_ACCOUNT}`);
    expect(after.token_balance).toBe(before.token_balance);
  });

  test('times and skip: the first skip calls pass, the next times calls fail, then they pass', async () => {
    const { api, control } = testEmulator();
    const rule = await control('POST', '/faults', {
      match: { operation: 'getCurrentKey' },
      respond: { status: 502 },
      skip: 1,
      times: 2,
    });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await api('GET', '/v1/keys/me')).status);
    expect(statuses).toEqual([200, 502, 502, 200, 200]);
    expect((await control('GET', '/faults')).data).toEqual([
      expect.objectContaining({
        id: rule.id,
        hits: 2,
        skipped: 1,
        remaining: 0,
        skip: 1,
        times: 2,
      }),
    ]);
  });

  test('match on account and key: other callers pass', async () => {
    const { api, control } = testEmulator();
    await control('POST', '/faults', {
      match: { account: NO_TWINS_ACCOUNT },
      respond: { status: 503 },
    });
    expect((await api('GET', '/v1/keys/me')).status).toBe(200);
    expectError(await api('GET', '/v1/keys/me', { secret: NO_TWINS_SECRET }), 503, 'api_error');
    await control('DELETE', '/faults');
    const me = (await api('GET', '/v1/keys/me')).json;
    await control('POST', '/faults', { match: { key: me.id }, respond: { status: 401 } });
    expectError(await api('GET', '/v1/keys/me'), 401, 'unauthenticated');
    expect((await api('GET', '/v1/keys/me', { secret: NO_TWINS_SECRET })).status).toBe(200);
  });

  test('match on method and route template; unmatched routes pass', async () => {
    const { api, control } = testEmulator();
    await control('POST', '/faults', {
      match: { method: 'GET', route: '/v1/sim_runs/{run_id}/logs' },
      respond: { status: 404 },
    });
    expectError(await api('GET', '/v1/sim_runs/eval_anything/logs'), 404, 'resource_not_found');
    expect((await api('GET', '/v1/keys/me')).status).toBe(200);
  });

  test('probability draws from the seeded PRNG: same seed, same sequence', async () => {
    async function run() {
      const { api, control } = testEmulator({ seed: '42' });
      await control('POST', '/faults', { respond: { status: 502 }, probability: 0.5 });
      const out = [];
      for (let i = 0; i < 24; i++) out.push((await api('GET', '/v1/keys/me')).status);
      return out;
    }
    const a = await run();
    expect(a).toContain(200);
    expect(a).toContain(502);
    expect(await run()).toEqual(a);
  });

  test('a delay rule holds the response, then the call succeeds', async () => {
    const { api, control } = testEmulator();
    await control('POST', '/faults', { respond: { delay_ms: 120 }, times: 1 });
    const started = performance.now();
    const res = await api('GET', '/v1/keys/me');
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  test('a drop rule closes the connection without a response; the server goes on', async () => {
    const { app, control } = testEmulator();
    await control('POST', '/faults', { respond: { drop: true }, times: 1 });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const headers = { authorization: `Bearer ${DEFAULT_SECRET}` };
    try {
      await expect(fetch(`http://127.0.0.1:${port}/v1/keys/me`, { headers })).rejects.toThrow(
        /fetch failed/,
      );
      expect((await fetch(`http://127.0.0.1:${port}/v1/keys/me`, { headers })).status).toBe(200);
    } finally {
      server.close();
    }
    const journal = await control('GET', '/requests');
    expect(journal.data.map((e: { status: number | null }) => e.status)).toEqual([null, 200]);
  });

  test('under app.request() a drop is a network-error Response', async () => {
    const { app, control } = testEmulator();
    await control('POST', '/faults', { respond: { drop: true } });
    const res = await app.request('/v1/keys/me');
    expect(res.type).toBe('error');
  });

  test('among many rules of every kind, the first installed that matches fires', async () => {
    const { api, control } = testEmulator();
    const me = (await api('GET', '/v1/keys/me')).json;
    // 200 rules of each kind that keys/me never matches.
    for (let i = 0; i < 200; i++) {
      for (const match of [
        { route: '/v1/evaluations', method: 'POST' },
        { route: '/v1/keys/me', method: 'DELETE' },
        { operation: 'createEvaluation' },
        { account: `acct_other_${i}` },
        { key: `key_other_${i}` },
        { method: 'PUT' },
      ]) {
        await control('POST', '/faults', { match, respond: { status: 500 } });
      }
    }
    // Then one matching rule of each kind, each firing once, in the order they were installed.
    const matching = [
      [{ method: 'GET' }, 503],
      [{ account: DEFAULT_ACCOUNT }, 502],
      [{ route: '/v1/keys/me' }, 429],
      [{}, 404],
      [{ operation: 'getCurrentKey', method: 'GET' }, 403],
      [{ key: me.id, method: 'GET' }, 409],
      [{ route: '/v1/keys/me', method: 'GET' }, 401],
    ] as const;
    for (const [match, status] of matching) {
      await control('POST', '/faults', { match, respond: { status }, times: 1 });
    }
    for (const [, status] of matching) {
      expect((await api('GET', '/v1/keys/me')).status).toBe(status);
    }
    expect((await api('GET', '/v1/keys/me')).status).toBe(200);
    const rules = (await control('GET', '/faults')).data as { hits: number }[];
    expect(rules.reduce((n, r) => n + r.hits, 0)).toBe(matching.length);
    // A removed rule no longer fires.
    await control('POST', '/faults', {
      match: { account: DEFAULT_ACCOUNT },
      respond: { status: 503 },
    });
    const last = ((await control('GET', '/faults')).data as { id: string }[]).at(-1)!;
    expectError(await api('GET', '/v1/keys/me'), 503, 'api_error');
    await control('DELETE', `/faults/${last.id}`);
    expect((await api('GET', '/v1/keys/me')).status).toBe(200);
  });

  test('rules are validated; unknown ids answer 404', async () => {
    const { app, control } = testEmulator();
    const post = (body: unknown) =>
      app.request('/_control/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const bad of [
      { respond: { status: 418 } },
      { respond: { status: 429, code: 'no_such_code' } },
      { respond: { delay_ms: -1 } },
      { respond: { status: 500 }, times: 0 },
      { respond: { status: 500 }, probability: 2 },
      { match: { colour: 'red' }, respond: { status: 500 } },
      {},
    ]) {
      const res = await post(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
        'parameter_invalid',
      );
    }
    const del = await app.request('/_control/faults/flt_nope', { method: 'DELETE' });
    expect(del.status).toBe(404);
    const rule = await control('POST', '/faults', { respond: { status: 500 } });
    expect(await control('DELETE', `/faults/${rule.id}`)).toEqual({ id: rule.id, deleted: true });
    expect((await control('GET', '/faults')).data).toEqual([]);
  });

  test('a full reset removes the rules a test installed', async () => {
    const { api, control } = testEmulator();
    await control('POST', '/faults', { respond: { status: 500 } });
    await control('POST', '/reset', {});
    expect((await control('GET', '/faults')).data).toEqual([]);
    expect((await api('GET', '/v1/keys/me')).status).toBe(200);
  });
});

describe('X-Emulator-Fault', () => {
  test.each([
    ['429', 429, 'rate_limit_exceeded', '1'],
    ['429;retry-after=7', 429, 'rate_limit_exceeded', '7'],
    ['429; code=capacity_exceeded; retry-after=3', 429, 'capacity_exceeded', '3'],
    ['409', 409, 'idempotency_key_reused', null],
    ['409;code=idempotency_key_reused', 409, 'idempotency_key_reused', null],
    ['502', 502, 'launch_failed', null],
    ['500', 500, 'api_error', null],
  ])('%s', async (value, status, code, retryAfter) => {
    const { api, control } = testEmulator();
    const res = await api('POST', '/v1/evaluations', {
      body: SPEC,
      headers: { 'x-emulator-fault': value },
    });
    expectError(res, status, code);
    expect(res.headers.get('retry-after')).toBe(retryAfter);
    expect((await api('GET', '/v1/evaluations')).json.data).toEqual([]);
    const [entry] = (await control('GET', `/requests?status=${status}`)).data;
    expect(entry).toMatchObject({
      fault_id: 'X-Emulator-Fault',
      code,
      account_id: DEFAULT_ACCOUNT,
    });
  });

  test('works before authentication, like the real service failing upstream', async () => {
    const { api } = testEmulator();
    expectError(
      await api('GET', '/v1/keys/me', { secret: null, headers: { 'x-emulator-fault': '502' } }),
      502,
      'launch_failed',
    );
  });

  test('delay=MS delays a call that then succeeds', async () => {
    const { api } = testEmulator();
    const started = performance.now();
    expect(
      (await api('GET', '/v1/keys/me', { headers: { 'x-emulator-fault': 'delay=60' } })).status,
    ).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
  });

  test.each([
    'abc',
    '42',
    '418',
    '429;retry-after=soon',
    '429;code=nope',
    '429;colour=red',
    'delay=99999999',
  ])('a malformed value %s is 400 naming the header', async (value) => {
    const { api } = testEmulator();
    expectError(
      await api('GET', '/v1/keys/me', { headers: { 'x-emulator-fault': value } }),
      400,
      'parameter_invalid',
      'X-Emulator-Fault',
    );
  });
});

test('a 409 fault that names no code answers each run kind operation its own conflict', async () => {
  const { api } = testEmulator();
  const cases: [string, string, string][] = [
    ['POST', '/v1/augmentations/aug_00000000000000000000000000/resume', 'not_resumable'],
    ['POST', '/v1/rl_runs/rl_00000000000000000000000000/cancel', 'not_cancelable'],
    ['GET', '/v1/scenario_runs/scnrun_00000000000000000000000000/files', 'run_not_ready'],
    ['GET', '/v1/evaluations/eval_00000000000000000000000000/archive', 'run_not_ready'],
    ['POST', '/v1/training_runs', 'policy_in_training'],
    ['POST', '/v1/twins/twin_00000000000000000000000000/resume', 'not_resumable'],
  ];
  for (const [method, path, code] of cases) {
    const body = method === 'POST' ? {} : undefined;
    const res = await api(method, path, { headers: { 'x-emulator-fault': '409' }, body });
    expect(res.status, path).toBe(409);
    expect(res.json.error.code, path).toBe(code);
  }
});
