/**
 * DESIGN.md section 1.2: same seed + same requests + same clock operations = byte-identical
 * responses and ids. Two emulators built apart replay one script of product and control calls.
 */
import { expect, test } from 'vitest';
import { testEmulator } from '../helpers.js';
import { REQUEST_ID } from './support.js';

interface Exchange {
  status: number;
  headers: [string, string][];
  body: string;
}

/**
 * Creates an account, composes scenarios, seeds evaluations, moves the clock and resumes, and
 * returns every response exactly as sent.
 */
async function script(seed: string): Promise<Exchange[]> {
  const { app } = testEmulator({ seed });
  const out: Exchange[] = [];
  async function call(method: string, path: string, body?: unknown, secret?: string) {
    const headers: Record<string, string> = {};
    if (secret) headers.authorization = `Bearer ${secret}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await app.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    out.push({ status: res.status, headers: [...res.headers.entries()], body: text });
    return JSON.parse(text);
  }

  const { account, key } = await call('POST', '/_control/accounts', { name: 'determinism' });
  const acct = `/_control/accounts/${account.id}`;
  await call('GET', '/v1/keys/me', undefined, key.secret);
  await call('POST', '/v1/scenarios', { robot: 'franka_panda', task: 'push' }, key.secret);
  await call('POST', `${acct}/clock/advance`, { seconds: 42 });
  await call(
    'POST',
    '/v1/scenarios',
    { robot: 'ur5e', task: 'suction_transfer', object_set: 'warehouse_boxes' },
    key.secret,
  );
  const failed = await call('POST', `${acct}/evaluations`, {
    spec: { path: 'specs/pick.py', name: 'pick' },
    status: 'failed',
    logs: ['a', 'b'],
  });
  const canceled = await call('POST', `${acct}/evaluations`, {
    spec: { path: 'specs/push.py', name: 'push' },
    status: 'canceled',
    legacy: true,
  });
  await call('POST', `${acct}/clock/advance`, { seconds: 3 });
  await call('POST', `/v1/evaluations/${failed.id}/resume`, undefined, key.secret);
  await call('POST', `/v1/evaluations/${canceled.id}/resume`, undefined, key.secret);
  await call('POST', `/v1/evaluations/${canceled.id}/resume`, undefined, key.secret);
  await call('GET', `/v1/sim_runs/${failed.id}/logs`, undefined, key.secret);
  await call('POST', `${acct}/clock/advance`, { seconds: 30 });
  await call('GET', `/v1/sim_runs/${failed.id}/files`, undefined, key.secret);
  await call('GET', '/v1/nope', undefined, key.secret);
  return out;
}

test('two emulators with the same seed answer the same requests byte for byte', async () => {
  const first = await script('7');
  const second = await script('7');
  expect(first.length).toBe(15);
  expect(second).toEqual(first);
  for (const exchange of first) {
    const requestId = exchange.headers.find(([name]) => name === 'x-request-id')?.[1];
    expect(requestId).toMatch(REQUEST_ID);
  }
});

test('a different seed gives different ids', async () => {
  const a = await script('7');
  const b = await script('8');
  const ids = (exchanges: Exchange[]) => ({
    requests: exchanges.map((e) => e.headers.find(([name]) => name === 'x-request-id')?.[1]),
    account: JSON.parse(exchanges[0]!.body).account.id,
    secret: JSON.parse(exchanges[0]!.body).key.secret,
    scenario: JSON.parse(exchanges[2]!.body).id,
    run: JSON.parse(exchanges[5]!.body).id,
  });
  const idsA = ids(a);
  const idsB = ids(b);
  expect(idsA.account).not.toBe(idsB.account);
  expect(idsA.secret).not.toBe(idsB.secret);
  expect(idsA.scenario).not.toBe(idsB.scenario);
  expect(idsA.run).not.toBe(idsB.run);
  for (let i = 0; i < idsA.requests.length; i++) {
    expect(idsA.requests[i]).not.toBe(idsB.requests[i]);
  }
  // Same shapes all the same: only the ids differ.
  expect(b.map((e) => e.status)).toEqual(a.map((e) => e.status));
});

test('the same seed in one process gives the same ids to two emulators built side by side', async () => {
  const one = testEmulator({ seed: 'side' });
  const two = testEmulator({ seed: 'side' });
  const a = await one.api('POST', '/v1/scenarios', { body: { robot: 'so100', task: 'push' } });
  const b = await two.api('POST', '/v1/scenarios', { body: { robot: 'so100', task: 'push' } });
  expect(a.status).toBe(201);
  expect(b.text).toBe(a.text);
  expect(b.headers.get('x-request-id')).toBe(a.headers.get('x-request-id'));
});
