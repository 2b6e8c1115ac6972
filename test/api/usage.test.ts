/**
 * GET /v1/usage (inferred, DESIGN.md section 3 "Inferred endpoints"; API document section 5:
 * `usage:read` reads token usage and credit balance): the balance and sums over the account's
 * runs of every registered kind (evaluations, scenario runs) as they read now.
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, NO_TWINS_SECRET, testEmulator } from '../helpers.js';
import { expectApiError, expectOk, SPEC } from './support.js';

const ZERO = { queued: 0, processing: 0, canceling: 0, succeeded: 0, failed: 0, canceled: 0 };

test('an account without runs has its balance and zeros, every status listed', async () => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/usage');
  expectOk(res, 200);
  expect(res.json).toEqual({
    object: 'usage',
    token_balance: 1_000_000,
    tokens: { charged: 0, refunded: 0, net: 0 },
    evaluations: { total: 0, by_status: ZERO },
    scenario_runs: { total: 0, by_status: ZERO },
  });
});

test('follows creates, a cancel and its refund on the clock', async () => {
  const emu = testEmulator();
  const usage = async () => {
    const res = await emu.api('GET', '/v1/usage');
    expectOk(res, 200);
    return res.json;
  };
  const advance = (seconds: number) =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });

  const a = await emu.api('POST', '/v1/evaluations', { body: { spec: SPEC } });
  const b = await emu.api('POST', '/v1/evaluations', {
    body: { spec: SPEC, options: { episodes: 4 } },
  });
  expect([a.json.tokens, b.json.tokens]).toEqual([
    { charged: 60, refunded: 0 },
    { charged: 30, refunded: 0 },
  ]);
  expect(await usage()).toEqual({
    object: 'usage',
    token_balance: 1_000_000 - 90,
    tokens: { charged: 90, refunded: 0, net: 90 },
    evaluations: { total: 2, by_status: { ...ZERO, queued: 2 } },
    scenario_runs: { total: 0, by_status: ZERO },
  });

  await advance(2);
  expectOk(await emu.api('POST', `/v1/evaluations/${b.json.id}/cancel`), 202);
  expect(await usage()).toEqual({
    object: 'usage',
    token_balance: 1_000_000 - 90,
    tokens: { charged: 90, refunded: 0, net: 90 },
    evaluations: { total: 2, by_status: { ...ZERO, processing: 1, canceling: 1 } },
    scenario_runs: { total: 0, by_status: ZERO },
  });

  await advance(500);
  const canceled = await emu.api('GET', `/v1/evaluations/${b.json.id}`);
  expect(canceled.json).toMatchObject({
    status: 'canceled',
    tokens: { charged: 30, refunded: 15 },
  });
  expect(await usage()).toEqual({
    object: 'usage',
    token_balance: 1_000_000 - 75,
    tokens: { charged: 90, refunded: 15, net: 75 },
    evaluations: { total: 2, by_status: { ...ZERO, succeeded: 1, canceled: 1 } },
    scenario_runs: { total: 0, by_status: ZERO },
  });
});

test('counts seeded runs in their state and only the caller account', async () => {
  const emu = testEmulator();
  const seed = (body: Record<string, unknown>) =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, { spec: SPEC, ...body });
  await seed({ status: 'failed', tokens: { charged: 40, refunded: 10 } });
  await seed({ status: 'succeeded', tokens: { charged: 25, refunded: 0 } });
  await emu.api('POST', '/v1/evaluations', { body: { spec: SPEC }, secret: NO_TWINS_SECRET });
  const res = await emu.api('GET', '/v1/usage');
  expect(res.json).toEqual({
    object: 'usage',
    token_balance: 1_000_000,
    tokens: { charged: 65, refunded: 10, net: 55 },
    evaluations: { total: 2, by_status: { ...ZERO, failed: 1, succeeded: 1 } },
    scenario_runs: { total: 0, by_status: ZERO },
  });
});

test('a key without usage:read answers 403 missing_scope', async () => {
  const emu = testEmulator();
  const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'no usage',
    scopes: ['evaluations:write'],
  });
  const res = await emu.api('GET', '/v1/usage', { secret: key.secret });
  const error = expectApiError(res, 403, 'missing_scope');
  expect(error.details).toEqual({ required_scope: 'usage:read' });
  const reader = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'usage',
    scopes: ['usage:read'],
  });
  expectOk(await emu.api('GET', '/v1/usage', { secret: reader.secret }), 200);
});

test('without a key answers 401', async () => {
  const { api } = testEmulator();
  expectApiError(await api('GET', '/v1/usage', { secret: null }), 401, 'unauthenticated');
});
