import { describe, expect, test } from 'vitest';
import { expectError } from '../helpers.js';
import { SPEC, withAccount } from '../with-account.js';

describe('requests_per_minute', () => {
  test('past the limit: 429 rate_limit_exceeded, Retry-After = seconds until a call would pass', async () => {
    const a = await withAccount({ limits: { requests_per_minute: 3 } });
    expect((await a.call('GET', '/v1/keys/me')).status).toBe(200);
    await a.advance(10);
    expect((await a.call('GET', '/v1/keys/me')).status).toBe(200);
    await a.advance(10);
    expect((await a.call('GET', '/v1/evaluations')).status).toBe(200);
    const refused = await a.call('GET', '/v1/keys/me');
    const body = expectError(refused, 429, 'rate_limit_exceeded');
    expect(body.details).toEqual({ requests_per_minute: 3 });
    // The first call (t=0) leaves the 60 s window at t=60: 40 s from t=20.
    expect(refused.headers.get('retry-after')).toBe('40');
    await a.advance(39);
    expect((await a.call('GET', '/v1/keys/me')).headers.get('retry-after')).toBe('1');
    await a.advance(1);
    expect((await a.call('GET', '/v1/keys/me')).status).toBe(200);
    // Refused calls did not count: the window holds t=10, t=20 and t=60.
    const next = await a.call('GET', '/v1/keys/me');
    expectError(next, 429, 'rate_limit_exceeded');
    expect(next.headers.get('retry-after')).toBe('10');
  });

  test('limits are per account', async () => {
    const a = await withAccount({ limits: { requests_per_minute: 1 } });
    expect((await a.call('GET', '/v1/keys/me')).status).toBe(200);
    expect((await a.call('GET', '/v1/keys/me')).status).toBe(429);
    expect((await a.api('GET', '/v1/keys/me')).status).toBe(200);
  });

  test('authentication failures come before the limit and do not count', async () => {
    const a = await withAccount({ limits: { requests_per_minute: 1 } });
    expectError(
      await a.call('GET', '/v1/keys/me', { secret: 'svc_wrong' }),
      401,
      'unauthenticated',
    );
    expect((await a.call('GET', '/v1/keys/me')).status).toBe(200);
  });
});

describe('concurrent_runs', () => {
  test('create past the limit: 429 concurrency_limit_exceeded until a slot frees on the clock', async () => {
    const a = await withAccount({ limits: { concurrent_runs: 1 } });
    const first = await a.call('POST', '/v1/evaluations', { body: SPEC });
    expect(first.status).toBe(201);
    const balance = (await a.control('GET', `/accounts/${a.accountId}`)).token_balance;
    const refused = await a.call('POST', '/v1/evaluations', { body: SPEC });
    const body = expectError(refused, 429, 'concurrency_limit_exceeded');
    expect(body.details).toEqual({ limit: 1, active: 1 });
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    // Nothing was created or charged.
    expect((await a.call('GET', '/v1/evaluations')).json.data).toHaveLength(1);
    expect((await a.control('GET', `/accounts/${a.accountId}`)).token_balance).toBe(balance);
    await a.advance(wait - 1);
    expect((await a.call('POST', '/v1/evaluations', { body: SPEC })).status).toBe(429);
    await a.advance(1);
    expect((await a.call('GET', `/v1/evaluations/${first.json.id}`)).json.status).toBe('succeeded');
    expect((await a.call('POST', '/v1/evaluations', { body: SPEC })).status).toBe(201);
  });

  test('resume past the limit: 429, and the run stays failed', async () => {
    const a = await withAccount({ limits: { concurrent_runs: 1 } });
    const failing = await a.call('POST', '/v1/evaluations', {
      body: { ...SPEC, options: { emulator: { outcomes: [{ fail: 'interrupted' }] } } },
    });
    await a.advance(60);
    expect((await a.call('GET', `/v1/evaluations/${failing.json.id}`)).json.status).toBe('failed');
    expect((await a.call('POST', '/v1/evaluations', { body: SPEC })).status).toBe(201);
    const refused = await a.call('POST', `/v1/evaluations/${failing.json.id}/resume`);
    expectError(refused, 429, 'concurrency_limit_exceeded');
    expect((await a.call('GET', `/v1/evaluations/${failing.json.id}`)).json.status).toBe('failed');
    await a.advance(Number(refused.headers.get('retry-after')));
    expect((await a.call('POST', `/v1/evaluations/${failing.json.id}/resume`)).status).toBe(202);
  });

  test('402 comes before 429 concurrency', async () => {
    const a = await withAccount({ limits: { concurrent_runs: 1 }, token_balance: 60 });
    expect((await a.call('POST', '/v1/evaluations', { body: SPEC })).status).toBe(201);
    expectError(
      await a.call('POST', '/v1/evaluations', { body: SPEC }),
      402,
      'insufficient_tokens',
    );
  });
});
