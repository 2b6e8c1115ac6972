/**
 * The control API (DESIGN.md section 5): health, accounts and keys, isolation, reset, virtual
 * clocks, the control token and its validation errors.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { expectApiError, expectOk, T0 } from '../api/support.js';
import { DEFAULT_ACCOUNT, NO_TWINS_ACCOUNT, NO_TWINS_SECRET, testEmulator } from '../helpers.js';

type Emu = ReturnType<typeof testEmulator>;

const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  .version as string;

const FULL_SCOPES = [
  'augmentations:write',
  'training_runs:write',
  'twins:write',
  'rl_runs:write',
  'evaluations:write',
  'scenario_runs:write',
  'scenarios:write',
  'webhooks:write',
  'usage:read',
  'requests:read',
];

const ACCT_ID = /^acct_[0-9A-HJKMNP-TV-Z]{26}$/;
const KEY_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;

/** A control call seen whole: status, headers and body (no API key is ever sent). */
function ctl(emu: Emu, method: string, path: string, body?: unknown) {
  return emu.api(method, `/_control${path}`, { secret: null, body });
}

async function seedTwin(emu: Emu, account = DEFAULT_ACCOUNT) {
  const twin = await emu.control('POST', `/accounts/${account}/twins`, { status: 'succeeded' });
  return twin.id as string;
}

async function seedRun(emu: Emu, account: string) {
  const run = await emu.control('POST', `/accounts/${account}/evaluations`, {
    spec: { path: 'specs/a.py', name: 'a' },
    status: 'succeeded',
    logs: ['ok'],
  });
  return run.id as string;
}

test('GET /_control/health answers ok with the emulator version and uptime', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'GET', '/health');
  expectOk(res, 200);
  expect(res.json).toEqual({ status: 'ok', version: VERSION, uptime_s: expect.any(Number) });
  expect(res.json.uptime_s).toBeGreaterThanOrEqual(0);
});

test('POST /_control/accounts answers a new account and a full-scope key with its secret', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', '/accounts', {});
  expectOk(res, 201);
  const { account, key } = res.json;
  expect(res.json).toEqual({
    account: {
      id: expect.stringMatching(ACCT_ID),
      object: 'account',
      name: account.id,
      features: [],
      token_balance: 1_000_000,
      limits: {},
      download_mode: 'auth',
      clock: { now: T0, mode: 'manual' },
      created_at: T0,
    },
    key: {
      id: expect.stringMatching(KEY_ID),
      object: 'api_key',
      account_id: account.id,
      name: 'default',
      scopes: FULL_SCOPES,
      created_at: T0,
      expires_at: null,
      revoked_at: null,
      secret: expect.stringMatching(/^svc_test_[0-9A-Za-z]{32}$/),
    },
  });

  const me = await emu.api('GET', '/v1/keys/me', { secret: key.secret });
  expectOk(me, 200);
  expect(me.json).toEqual({
    id: key.id,
    object: 'api_key',
    name: 'default',
    scopes: FULL_SCOPES,
    created_at: T0,
  });
});

test('POST /_control/accounts takes an id, a name, features, a balance and a clock start', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', '/accounts', {
    id: 'acct_ci42',
    name: 'CI',
    features: ['twins'],
    token_balance: 5,
    limits: { requests_per_minute: 60 },
    clock: { start: '2026-06-01T12:00:00Z' },
  });
  expectOk(res, 201);
  expect(res.json.account).toEqual({
    id: 'acct_ci42',
    object: 'account',
    name: 'CI',
    features: ['twins'],
    token_balance: 5,
    limits: { requests_per_minute: 60 },
    download_mode: 'auth',
    clock: { now: '2026-06-01T12:00:00.000Z', mode: 'manual' },
    created_at: '2026-06-01T12:00:00.000Z',
  });
  expect(res.json.key.created_at).toBe('2026-06-01T12:00:00.000Z');
});

test('two accounts made one after the other get different ids and secrets', async () => {
  const emu = testEmulator();
  const a = await emu.control('POST', '/accounts', {});
  const b = await emu.control('POST', '/accounts', {});
  expect(a.account.id).not.toBe(b.account.id);
  expect(a.key.id).not.toBe(b.key.id);
  expect(a.key.secret).not.toBe(b.key.secret);
});

test('an account id that already exists answers 400 parameter_invalid naming id', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', '/accounts', { id: DEFAULT_ACCOUNT });
  expectApiError(res, 400, 'parameter_invalid', 'id');
});

test("accounts are isolated: neither sees the other's runs", async () => {
  const emu = testEmulator();
  const other = await emu.control('POST', '/accounts', {});
  const mine = await seedRun(emu, DEFAULT_ACCOUNT);
  const theirs = await seedRun(emu, other.account.id);

  expectOk(await emu.api('GET', `/v1/sim_runs/${mine}/logs`), 200);
  const cross = await emu.api('GET', `/v1/sim_runs/${theirs}/logs`);
  expectApiError(cross, 404, 'resource_not_found', 'run_id');

  const secret = other.key.secret;
  expectOk(await emu.api('GET', `/v1/sim_runs/${theirs}/logs`, { secret }), 200);
  const back = await emu.api('GET', `/v1/sim_runs/${mine}/logs`, { secret });
  expectApiError(back, 404, 'resource_not_found', 'run_id');
});

test("accounts are isolated: moving one account's clock leaves the others", async () => {
  const emu = testEmulator();
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 3600 });
  const other = await ctl(emu, 'GET', `/accounts/${NO_TWINS_ACCOUNT}/clock`);
  expectOk(other, 200);
  expect(other.json).toEqual({ account_id: NO_TWINS_ACCOUNT, now: T0, mode: 'manual' });
});

test('GET /_control/accounts/{id} answers the account with its clock', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'GET', `/accounts/${DEFAULT_ACCOUNT}`);
  expectOk(res, 200);
  expect(res.json).toEqual({
    id: DEFAULT_ACCOUNT,
    object: 'account',
    name: 'Default',
    features: ['twins'],
    token_balance: 1_000_000,
    limits: {},
    download_mode: 'auth',
    clock: { now: T0, mode: 'manual' },
    created_at: T0,
  });
});

test('POST /_control/accounts/{id}/keys answers the key with its secret, shown once', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'reader',
    scopes: ['evaluations:read'],
    expires_at: '2026-02-01T00:00:00Z',
  });
  expectOk(res, 201);
  expect(res.json).toEqual({
    id: expect.stringMatching(KEY_ID),
    object: 'api_key',
    account_id: DEFAULT_ACCOUNT,
    name: 'reader',
    scopes: ['evaluations:read'],
    created_at: T0,
    expires_at: '2026-02-01T00:00:00.000Z',
    revoked_at: null,
    secret: expect.stringMatching(/^svc_test_/),
  });
});

test('POST /_control/keys/{id}/revoke answers the revoked key without its secret', async () => {
  const emu = testEmulator();
  const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'temp',
    scopes: [],
  });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 60 });
  const res = await ctl(emu, 'POST', `/keys/${key.id}/revoke`);
  expectOk(res, 200);
  expect(res.json).toEqual({
    id: key.id,
    object: 'api_key',
    account_id: DEFAULT_ACCOUNT,
    name: 'temp',
    scopes: [],
    created_at: T0,
    expires_at: null,
    revoked_at: '2026-01-01T00:01:00.000Z',
  });
  expectApiError(
    await emu.api('GET', '/v1/keys/me', { secret: key.secret }),
    401,
    'unauthenticated',
  );
});

test('revoking an unknown key answers 404 naming key_id', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', '/keys/key_nope/revoke');
  expectApiError(res, 404, 'resource_not_found', 'key_id');
});

test('an unknown account answers 404 naming account_id', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'GET', '/accounts/acct_nope/clock');
  expectApiError(res, 404, 'resource_not_found', 'account_id');
});

test('POST /_control/reset restores the default scenario: seeded state is gone', async () => {
  const emu = testEmulator();
  const twin = await seedTwin(emu);
  const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'before reset',
    scopes: [],
  });
  const made = await emu.control('POST', '/accounts', {});
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 600 });
  expectOk(await emu.api('GET', `/v1/twins/${twin}/files`), 200);

  const res = await ctl(emu, 'POST', '/reset', {});
  expectOk(res, 200);
  expect(res.json).toEqual({ scenario: 'default', account: null });

  expectApiError(
    await emu.api('GET', `/v1/twins/${twin}/files`),
    404,
    'resource_not_found',
    'twin_id',
  );
  expectApiError(
    await emu.api('GET', '/v1/keys/me', { secret: key.secret }),
    401,
    'unauthenticated',
  );
  const gone = await emu.api('GET', '/v1/keys/me', { secret: made.key.secret });
  expectApiError(gone, 401, 'unauthenticated');
  const clock = await ctl(emu, 'GET', `/accounts/${DEFAULT_ACCOUNT}/clock`);
  expect(clock.json).toEqual({ account_id: DEFAULT_ACCOUNT, now: T0, mode: 'manual' });
  expectOk(await emu.api('GET', '/v1/keys/me'), 200);
  expectOk(await emu.api('GET', '/v1/keys/me', { secret: NO_TWINS_SECRET }), 200);
});

test('POST /_control/reset without a body resets everything', async () => {
  const emu = testEmulator();
  const twin = await seedTwin(emu);
  const res = await emu.app.request('/_control/reset', { method: 'POST' });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ scenario: 'default', account: null });
  expectApiError(
    await emu.api('GET', `/v1/twins/${twin}/files`),
    404,
    'resource_not_found',
    'twin_id',
  );
});

test('POST /_control/reset of one account leaves the other accounts alone', async () => {
  const emu = testEmulator();
  const twin = await seedTwin(emu);
  const mine = await seedRun(emu, DEFAULT_ACCOUNT);
  const theirs = await seedRun(emu, NO_TWINS_ACCOUNT);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 60 });
  await emu.control('POST', `/accounts/${NO_TWINS_ACCOUNT}/clock/advance`, { seconds: 60 });

  const res = await ctl(emu, 'POST', '/reset', { account: DEFAULT_ACCOUNT });
  expectOk(res, 200);
  expect(res.json).toEqual({ scenario: 'default', account: DEFAULT_ACCOUNT });

  expectApiError(
    await emu.api('GET', `/v1/twins/${twin}/files`),
    404,
    'resource_not_found',
    'twin_id',
  );
  expectApiError(
    await emu.api('GET', `/v1/sim_runs/${mine}/logs`),
    404,
    'resource_not_found',
    'run_id',
  );
  const kept = await emu.api('GET', `/v1/sim_runs/${theirs}/logs`, { secret: NO_TWINS_SECRET });
  expectOk(kept, 200);
  expect(kept.json).toEqual({ id: theirs, object: 'sim_run_logs', lines: ['ok'] });

  const reset = await ctl(emu, 'GET', `/accounts/${DEFAULT_ACCOUNT}/clock`);
  expect(reset.json).toEqual({ account_id: DEFAULT_ACCOUNT, now: T0, mode: 'manual' });
  const untouched = await ctl(emu, 'GET', `/accounts/${NO_TWINS_ACCOUNT}/clock`);
  expect(untouched.json).toEqual({
    account_id: NO_TWINS_ACCOUNT,
    now: '2026-01-01T00:01:00.000Z',
    mode: 'manual',
  });
  expectOk(await emu.api('GET', '/v1/keys/me'), 200);
});

test('POST /_control/reset of an account made at run time empties it and keeps its key', async () => {
  const emu = testEmulator();
  const made = await emu.control('POST', '/accounts', {});
  const run = await seedRun(emu, made.account.id);
  const secret = made.key.secret;
  expectOk(await emu.api('GET', `/v1/sim_runs/${run}/logs`, { secret }), 200);

  expectOk(await ctl(emu, 'POST', '/reset', { account: made.account.id }), 200);
  const res = await emu.api('GET', `/v1/sim_runs/${run}/logs`, { secret });
  expectApiError(res, 404, 'resource_not_found', 'run_id');
  expectOk(await emu.api('GET', '/v1/keys/me', { secret }), 200);
});

test('POST /_control/reset of an unknown account answers 404', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', '/reset', { account: 'acct_nope' });
  expectApiError(res, 404, 'resource_not_found', 'account_id');
});

test('GET /_control/accounts/{id}/clock answers now and mode', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'GET', `/accounts/${DEFAULT_ACCOUNT}/clock`);
  expectOk(res, 200);
  expect(res.json).toEqual({ account_id: DEFAULT_ACCOUNT, now: T0, mode: 'manual' });
});

test('PUT /_control/accounts/{id}/clock moves now forward and sets the mode', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, {
    now: '2026-03-01T02:00:00+02:00',
  });
  expectOk(res, 200);
  expect(res.json).toEqual({
    account_id: DEFAULT_ACCOUNT,
    now: '2026-03-01T00:00:00.000Z',
    mode: 'manual',
  });
  const mode = await ctl(emu, 'PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, { mode: 'scaled:10' });
  expectOk(mode, 200);
  expect(mode.json).toEqual({
    account_id: DEFAULT_ACCOUNT,
    now: expect.stringMatching(/^2026-03-01T00:00:/),
    mode: 'scaled:10',
  });
});

test('PUT /_control/accounts/{id}/clock backwards answers 400 naming now', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, {
    now: '2025-12-31T23:59:59Z',
  });
  expectApiError(res, 400, 'parameter_invalid', 'now');
  const clock = await ctl(emu, 'GET', `/accounts/${DEFAULT_ACCOUNT}/clock`);
  expect(clock.json.now).toBe(T0);
});

test('POST /_control/accounts/{id}/clock/advance by seconds answers the new now', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, {
    seconds: 90.5,
  });
  expectOk(res, 200);
  expect(res.json).toEqual({
    account_id: DEFAULT_ACCOUNT,
    now: '2026-01-01T00:01:30.500Z',
    mode: 'manual',
    transitions: [],
  });
});

test('POST /_control/accounts/{id}/clock/advance to an instant answers that instant', async () => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, {
    to: '2026-01-02T00:00:00Z',
  });
  expectOk(res, 200);
  expect(res.json).toEqual({
    account_id: DEFAULT_ACCOUNT,
    now: '2026-01-02T00:00:00.000Z',
    mode: 'manual',
    transitions: [],
  });
});

test('advancing to an earlier instant answers 400 parameter_invalid naming to', async () => {
  const emu = testEmulator();
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 60 });
  const res = await ctl(emu, 'POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { to: T0 });
  expectApiError(res, 400, 'parameter_invalid', 'to');
  const clock = await ctl(emu, 'GET', `/accounts/${DEFAULT_ACCOUNT}/clock`);
  expect(clock.json.now).toBe('2026-01-01T00:01:00.000Z');
});

test.each([
  ['both seconds and to', { seconds: 1, to: '2026-02-01T00:00:00Z' }, null],
  ['neither seconds nor to', {}, null],
  ['negative seconds', { seconds: -1 }, 'seconds'],
  ['seconds as a string', { seconds: '60' }, 'seconds'],
  ['a malformed instant', { to: 'tomorrow' }, 'to'],
  ['an unknown field', { minutes: 1 }, 'minutes'],
])('advancing with %s answers 400 parameter_invalid', async (_label, body, param) => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, body);
  expectApiError(res, 400, 'parameter_invalid', param);
});

test('a control token makes control calls without X-Control-Token answer 401 control_unauthorized', async () => {
  const emu = testEmulator({ controlToken: 'tok' });
  for (const [method, path] of [
    ['GET', '/_control/health'],
    ['POST', '/_control/reset'],
    ['GET', `/_control/accounts/${DEFAULT_ACCOUNT}/clock`],
  ] as const) {
    const res = await emu.api(method, path, { secret: null });
    expectApiError(res, 401, 'control_unauthorized');
  }
});

test('a control token rejects a wrong X-Control-Token and accepts the right one', async () => {
  const emu = testEmulator({ controlToken: 'tok' });
  const wrong = await emu.api('GET', '/_control/health', {
    secret: null,
    headers: { 'x-control-token': 'tok2' },
  });
  expectApiError(wrong, 401, 'control_unauthorized');
  const right = await emu.api('GET', '/_control/health', {
    secret: null,
    headers: { 'x-control-token': 'tok' },
  });
  expectOk(right, 200);
  expect(right.json).toEqual({ status: 'ok', version: VERSION, uptime_s: expect.any(Number) });
});

test('a control token leaves the control docs and document open, and the document declares it', async () => {
  const emu = testEmulator({ controlToken: 'tok' });
  expect((await emu.api('GET', '/_control/docs', { secret: null })).status).toBe(200);
  const doc = await emu.api('GET', '/_control/openapi.json', { secret: null });
  expectOk(doc, 200);
  const json = doc.json as {
    security: unknown;
    components: { securitySchemes: Record<string, unknown> };
  };
  expect(json.components.securitySchemes.ControlToken).toMatchObject({
    type: 'apiKey',
    in: 'header',
    name: 'X-Control-Token',
  });
  expect(json.security).toEqual([{}, { ControlToken: [] }]);
  expectApiError(
    await emu.api('POST', '/_control/openapi.json', { secret: null }),
    401,
    'control_unauthorized',
  );
});

test('a control token does not guard the product API', async () => {
  const emu = testEmulator({ controlToken: 'tok' });
  expectOk(await emu.api('GET', '/v1/keys/me'), 200);
});

test.each([
  ['/accounts', { features: ['robots'] }, 'features.0'],
  ['/accounts', { id: 'account-1' }, 'id'],
  ['/accounts', { token_balance: -1 }, 'token_balance'],
  ['/accounts', { plan: 'pro' }, 'plan'],
  [`/accounts/${DEFAULT_ACCOUNT}/keys`, { scopes: [] }, 'name'],
  [`/accounts/${DEFAULT_ACCOUNT}/keys`, { name: 'k', scopes: ['robots:read'] }, 'scopes.0'],
  [
    `/accounts/${DEFAULT_ACCOUNT}/keys`,
    { name: 'k', scopes: [], expires_at: 'soon' },
    'expires_at',
  ],
  [`/accounts/${DEFAULT_ACCOUNT}/evaluations`, { status: 'failed' }, 'spec'],
  [
    `/accounts/${DEFAULT_ACCOUNT}/evaluations`,
    { spec: { path: 'a.py', name: 'a' }, status: 'done' },
    'status',
  ],
  [`/accounts/${DEFAULT_ACCOUNT}/evaluations`, { spec: { path: 'a.py' } }, 'spec.name'],
  [`/accounts/${DEFAULT_ACCOUNT}/twins`, { status: 'ready' }, 'status'],
  [
    `/accounts/${DEFAULT_ACCOUNT}/twins`,
    { status: 'succeeded', generate_files: -1 },
    'generate_files',
  ],
  [`/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, { url: 'not a url' }, 'url'],
  [`/accounts/${DEFAULT_ACCOUNT}/environments`, { status: 'validated' }, 'name'],
  [`/accounts/${DEFAULT_ACCOUNT}/objects`, { name: 'o', status: 'approved' }, 'status'],
])('POST /_control%s with a bad body answers 400 naming the field', async (path, body, param) => {
  const emu = testEmulator();
  const res = await ctl(emu, 'POST', path, body);
  expectApiError(res, 400, 'parameter_invalid', param);
});

test('a malformed JSON control body answers 400 parameter_invalid without a param', async () => {
  const emu = testEmulator();
  const res = await emu.api('POST', '/_control/accounts', { secret: null, body: '{"name":' });
  expectApiError(res, 400, 'parameter_invalid', null);
});
