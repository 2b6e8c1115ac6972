/**
 * The request pipeline of DESIGN.md section 2, through the documented operations: request ids,
 * `Service-Version`, authentication, versions, scopes, body parsing, unknown routes and the order
 * of the checks (DESIGN.md section 3, "Order of checks").
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, expectError, testEmulator } from '../helpers.js';
import { expectApiError, expectOk, file, REQUEST_ID, SPEC, T0 } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

async function makeKey(emu: Emu, scopes: string[], extra: Record<string, unknown> = {}) {
  return emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'narrow',
    scopes,
    ...extra,
  });
}

async function seedFailed(emu: Emu) {
  return emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
    spec: SPEC,
    status: 'failed',
  });
}

/** One call of each of the seven documented operations, with what it needs seeded first. */
async function documentedCalls(emu: Emu) {
  const failed = await seedFailed(emu);
  const succeeded = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
    spec: SPEC,
    status: 'succeeded',
    logs: ['done'],
    files: [file('manifest.json')],
  });
  const twin = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {
    status: 'succeeded',
  });
  const endpoint = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: 'https://example.com/hook',
  });
  return [
    { method: 'POST', path: `/v1/evaluations/${failed.id}/resume`, status: 202 },
    { method: 'GET', path: '/v1/keys/me', status: 200 },
    {
      method: 'POST',
      path: '/v1/scenarios',
      status: 201,
      body: { robot: 'franka_panda', task: 'push' },
    },
    { method: 'GET', path: `/v1/sim_runs/${succeeded.id}/logs`, status: 200 },
    { method: 'GET', path: `/v1/sim_runs/${succeeded.id}/files`, status: 200 },
    { method: 'GET', path: `/v1/twins/${twin.id}/files`, status: 200 },
    { method: 'DELETE', path: `/v1/webhook_endpoints/${endpoint.id}`, status: 200 },
  ] as { method: string; path: string; status: number; body?: unknown }[];
}

test('every response carries a req_ request id, a different one per request', async () => {
  const { api } = testEmulator();
  const responses = [
    await api('GET', '/v1/keys/me'),
    await api('GET', '/v1/keys/me'),
    await api('GET', '/v1/keys/me', { secret: null }),
    await api('GET', '/v1/nope'),
    await api('GET', '/_control/health', { secret: null }),
  ];
  const ids = responses.map((r) => r.headers.get('x-request-id'));
  for (const id of ids) expect(id).toMatch(REQUEST_ID);
  expect(new Set(ids).size).toBe(ids.length);
});

test('an error body repeats the X-Request-Id header as request_id', async () => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/keys/me', { secret: null });
  const error = expectApiError(res, 401, 'unauthenticated');
  expect(error.request_id).toBe(res.headers.get('x-request-id'));
});

test('a response without Service-Version in the request is served at 2026-09-27', async () => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/keys/me');
  expectOk(res, 200, '2026-09-27');
});

test('a response states the requested version when it is supported', async () => {
  const { api } = testEmulator();
  const headers = { 'service-version': '2026-10-12' };
  expectOk(await api('GET', '/v1/keys/me', { headers }), 200, '2026-10-12');
  expectApiError(
    await api('GET', '/v1/keys/me', { headers, secret: null }),
    401,
    'unauthenticated',
    null,
    '2026-10-12',
  );
  expectApiError(
    await api('GET', '/v1/nope', { headers }),
    404,
    'resource_not_found',
    null,
    '2026-10-12',
  );
  expectApiError(
    await api('POST', '/v1/scenarios', { headers, body: { robot: 'franka_panda' } }),
    400,
    'parameter_invalid',
    'task',
    '2026-10-12',
  );
});

test('errors of every kind carry Service-Version 2026-09-27 by default', async () => {
  const { api } = testEmulator();
  expectApiError(await api('GET', '/v1/keys/me', { secret: null }), 401, 'unauthenticated');
  expectApiError(await api('GET', '/v1/nope'), 404, 'resource_not_found');
  expectApiError(
    await api('POST', '/v1/scenarios', { body: { task: 'push' } }),
    400,
    'parameter_invalid',
    'robot',
  );
});

test('an unsupported Service-Version answers 400 unsupported_version at the default version', async () => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/keys/me', { headers: { 'service-version': '2027-01-01' } });
  const error = expectApiError(res, 400, 'unsupported_version', 'Service-Version', '2026-09-27');
  expect(error.message).toContain('2027-01-01');
});

test.each([
  ['no Authorization header', {}],
  ['a Basic scheme', { authorization: 'Basic xyz' }],
  ['Bearer without a token', { authorization: 'Bearer' }],
  ['a token without the svc_ prefix', { authorization: 'Bearer sk_test_123456' }],
  ['an unknown svc_ key', { authorization: 'Bearer svc_test_unknown_key_0000' }],
])('a request with %s answers 401 unauthenticated', async (_label, headers) => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/keys/me', { secret: null, headers });
  expectApiError(res, 401, 'unauthenticated');
});

test('a revoked key answers 401 unauthenticated', async () => {
  const emu = testEmulator();
  const key = await makeKey(emu, ['evaluations:read']);
  expectOk(await emu.api('GET', '/v1/keys/me', { secret: key.secret }), 200);
  const revoked = await emu.control('POST', `/keys/${key.id}/revoke`);
  expect(revoked.revoked_at).toBe(T0);
  const res = await emu.api('GET', '/v1/keys/me', { secret: key.secret });
  expectApiError(res, 401, 'unauthenticated');
});

test('an expired key answers 401 unauthenticated once the clock passes expires_at', async () => {
  const emu = testEmulator();
  const key = await makeKey(emu, ['evaluations:read'], { expires_at: '2026-01-01T01:00:00.000Z' });
  expectOk(await emu.api('GET', '/v1/keys/me', { secret: key.secret }), 200);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 3599 });
  expectOk(await emu.api('GET', '/v1/keys/me', { secret: key.secret }), 200);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 2 });
  const res = await emu.api('GET', '/v1/keys/me', { secret: key.secret });
  expectApiError(res, 401, 'unauthenticated');
});

test.each(['2026-09-27', '2026-10-12'])(
  'Service-Version %s is accepted on every documented operation by default',
  async (version) => {
    const emu = testEmulator();
    for (const call of await documentedCalls(emu)) {
      const res = await emu.api(call.method, call.path, {
        body: call.body,
        headers: { 'service-version': version },
      });
      expectOk(res, call.status, version);
    }
  },
);

test('with strict versions, 2026-10-12 is rejected on GET /v1/keys/me', async () => {
  const { api } = testEmulator({ strictVersions: true });
  const res = await api('GET', '/v1/keys/me', { headers: { 'service-version': '2026-10-12' } });
  expect(res.status).toBe(400);
  expect(res.json).toEqual({
    error: {
      type: 'invalid_request_error',
      code: 'unsupported_version',
      message: expect.stringContaining('2026-09-27'),
      param: 'Service-Version',
      request_id: res.headers.get('x-request-id'),
      details: null,
    },
  });
});

// API document section 9.3: every response states the version that served it. A version the
// operation rejects did not serve it; like any other unsupported value (request-context.ts:
// "An unsupported version is answered at the default version") the answer is at 2026-09-27.
test('with strict versions, the rejection of 2026-10-12 is served at 2026-09-27', async () => {
  const { api } = testEmulator({ strictVersions: true });
  const res = await api('GET', '/v1/keys/me', { headers: { 'service-version': '2026-10-12' } });
  expectApiError(res, 400, 'unsupported_version', 'Service-Version', '2026-09-27');
});

test('with strict versions, 2026-10-12 is rejected on every documented operation but resume', async () => {
  const emu = testEmulator({ strictVersions: true });
  const headers = { 'service-version': '2026-10-12' };
  for (const call of await documentedCalls(emu)) {
    const res = await emu.api(call.method, call.path, { body: call.body, headers });
    if (call.path.endsWith('/resume')) expectOk(res, 202, '2026-10-12');
    // Rejections are served at the default version (test above).
    else expectError(res, 400, 'unsupported_version', 'Service-Version');
  }
});

test('with strict versions, resume accepts 2026-10-12 and records it on the run', async () => {
  const emu = testEmulator({ strictVersions: true });
  const run = await seedFailed(emu);
  const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`, {
    headers: { 'service-version': '2026-10-12' },
  });
  expectOk(res, 202, '2026-10-12');
  expect(res.json).toMatchObject({ id: run.id, status: 'queued', service_version: '2026-10-12' });
});

test('a key with only evaluations:read reads sim run logs', async () => {
  const emu = testEmulator();
  const run = await seedFailed(emu);
  const key = await makeKey(emu, ['evaluations:read']);
  const res = await emu.api('GET', `/v1/sim_runs/${run.id}/logs`, { secret: key.secret });
  expectOk(res, 200);
  expect(res.json).toEqual({ id: run.id, object: 'sim_run_logs', lines: [] });
});

test('a write scope implies read: a key with only evaluations:write reads sim run logs', async () => {
  const emu = testEmulator();
  const run = await seedFailed(emu);
  const key = await makeKey(emu, ['evaluations:write']);
  const res = await emu.api('GET', `/v1/sim_runs/${run.id}/logs`, { secret: key.secret });
  expectOk(res, 200);
  expect(res.json).toEqual({ id: run.id, object: 'sim_run_logs', lines: [] });
});

test('a scope grants only its own resource: evaluations:write cannot create a scenario', async () => {
  const emu = testEmulator();
  const key = await makeKey(emu, ['evaluations:write']);
  const res = await emu.api('POST', '/v1/scenarios', {
    secret: key.secret,
    body: { robot: 'franka_panda', task: 'push' },
  });
  const error = expectApiError(res, 403, 'missing_scope');
  expect(error.details).toEqual({ required_scope: 'scenarios:write' });
});

test('a malformed JSON body answers 400 parameter_invalid without a param', async () => {
  const { api } = testEmulator();
  const res = await api('POST', '/v1/scenarios', { body: '{"robot": "franka_panda",' });
  expectApiError(res, 400, 'parameter_invalid', null);
});

test('a body sent as text/plain answers 400 parameter_invalid without a param', async () => {
  const { api } = testEmulator();
  const res = await api('POST', '/v1/scenarios', {
    body: JSON.stringify({ robot: 'franka_panda', task: 'push' }),
    headers: { 'content-type': 'text/plain' },
  });
  expectApiError(res, 400, 'parameter_invalid', null);
});

test('a body over 1 MiB answers 413 request_too_large', async () => {
  const { api } = testEmulator();
  const body = JSON.stringify({
    robot: 'franka_panda',
    task: 'push',
    description: 'x'.repeat(1024 * 1024),
  });
  const res = await api('POST', '/v1/scenarios', { body });
  const error = expectApiError(res, 413, 'request_too_large');
  expect(error.type).toBe('invalid_request_error');
});

test('a body over 1 MiB with a Content-Length header answers 413 request_too_large', async () => {
  const { api } = testEmulator();
  const body = JSON.stringify({ robot: 'franka_panda', task: 'push', tags: ['x'.repeat(1 << 20)] });
  const res = await api('POST', '/v1/scenarios', {
    body,
    headers: { 'content-length': String(Buffer.byteLength(body)) },
  });
  expectApiError(res, 413, 'request_too_large');
});

test('a body over 1 MiB under a fault header that only delays still answers 413 request_too_large', async () => {
  // The faults step runs, and the size check after it as its `next` (pipeline.ts).
  const { api } = testEmulator();
  const body = JSON.stringify({ robot: 'franka_panda', task: 'push', tags: ['x'.repeat(1 << 20)] });
  const sent: Record<string, string>[] = [
    { 'content-length': String(Buffer.byteLength(body)), 'x-emulator-fault': 'delay=0' },
    { 'x-emulator-fault': 'delay=0' },
  ];
  for (const headers of sent) {
    const res = await api('POST', '/v1/scenarios', { body, headers });
    expectApiError(res, 413, 'request_too_large');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  }
});

test('a body of exactly 1 MiB is not too large', async () => {
  const { api } = testEmulator();
  const head = JSON.stringify({ robot: 'franka_panda', task: 'push', env_args: { pad: '' } });
  const body = head.replace('"pad":""', `"pad":"${'x'.repeat(1024 * 1024 - head.length)}"`);
  expect(Buffer.byteLength(body)).toBe(1024 * 1024);
  expectOk(await api('POST', '/v1/scenarios', { body }), 201);
});

test('an unknown route answers 404 resource_not_found naming the method and path', async () => {
  const { api } = testEmulator();
  const res = await api('PATCH', '/v1/evaluations/eval_x/unknown');
  const error = expectApiError(res, 404, 'resource_not_found');
  expect(error.message).toContain('PATCH /v1/evaluations/eval_x/unknown');
});

test('an unknown route outside /v1 answers 404 without a key', async () => {
  const { api } = testEmulator();
  const res = await api('GET', '/v2/keys/me', { secret: null });
  const error = expectApiError(res, 404, 'resource_not_found');
  expect(error.message).toContain('GET /v2/keys/me');
});

test('authentication comes before the version check: no key and a bad version answer 401', async () => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/keys/me', {
    secret: null,
    headers: { 'service-version': '2027-01-01' },
  });
  expectApiError(res, 401, 'unauthenticated');
});

test('the version check comes before the scope check: a bad version and a missing scope answer 400', async () => {
  const emu = testEmulator();
  const run = await seedFailed(emu);
  const key = await makeKey(emu, []);
  const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`, {
    secret: key.secret,
    headers: { 'service-version': '2027-01-01' },
  });
  expectApiError(res, 400, 'unsupported_version', 'Service-Version');
});

test('the scope check comes before validation and lookup', async () => {
  const emu = testEmulator();
  const key = await makeKey(emu, []);
  const scenario = await emu.api('POST', '/v1/scenarios', { secret: key.secret, body: {} });
  expectApiError(scenario, 403, 'missing_scope');
  const resume = await emu.api('POST', '/v1/evaluations/eval_unknown/resume', {
    secret: key.secret,
  });
  expectApiError(resume, 403, 'missing_scope');
});

test('the default key authenticates with any case of the Bearer scheme', async () => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/keys/me', {
    secret: null,
    headers: { authorization: `bearer ${DEFAULT_SECRET}` },
  });
  expectOk(res, 200);
});
