/**
 * Giving endpoints receiver chaos (product `emulator.chaos`, control seeding, `PUT
 * /_control/accounts/{id}/webhook_chaos`) and what each kind sends (docs/runtime.md "Receiver
 * chaos"): through the real app, with local receivers verifying with `standardwebhooks`.
 */
import { afterEach, expect, test } from 'vitest';
import { expectApiError } from '../../../test/api/support.js';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../../../test/helpers.js';
import { eventually } from '../../../test/wait.js';
import { type Receiver, startReceiver } from '../../../test/webhook-receiver.js';
import type { EmulatorOptions } from '../../emulator.js';
import type { ReceiverReport, WebhookDelivery } from '../../tools/harness/index.js';

const EVENT = {
  type: 'evaluation.succeeded',
  data: { object: { id: 'eval_01KDVDNA0000000000000000EX', object: 'evaluation' } },
};
const OFF = {
  duplicate: 0,
  out_of_order: 0,
  stale_timestamp: 0,
  bad_signature: 0,
  unknown_type: 0,
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function emulator(options: EmulatorOptions = {}) {
  const emu = testEmulator(options);
  cleanups.push(() => emu.emulator.close());
  /** A control call answered as it is, error or not. */
  const raw = async (method: string, path: string, body?: unknown) => {
    const res = await emu.app.request(`/_control${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as unknown, headers: res.headers };
  };
  const endpoints = async () =>
    (await emu.control('GET', `/webhook_endpoints?account=${DEFAULT_ACCOUNT}`)).data as {
      id: string;
      chaos: Record<string, number> | null;
    }[];
  const deliveries = async () =>
    (await emu.control('GET', `/webhook_deliveries?account=${DEFAULT_ACCOUNT}`))
      .data as WebhookDelivery[];
  const report = async (endpointId: string): Promise<ReceiverReport> =>
    emu.control('GET', `/webhook_endpoints/${endpointId}/receiver_report`);
  return { ...emu, raw, endpoints, deliveries, report };
}

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  cleanups.push(() => r.close());
  return r;
}

test('POST /v1/webhook_endpoints takes emulator.chaos; the control listing shows it, the endpoint body does not', async () => {
  const emu = emulator();
  const body = {
    url: 'https://example.com/h',
    emulator: { chaos: { duplicate: true, bad_signature: 0.5 } },
  };
  const created = await emu.api('POST', '/v1/webhook_endpoints', { body });
  expect(created.status).toBe(201);
  expect(created.json).not.toHaveProperty('chaos');
  expect(created.json).not.toHaveProperty('emulator');
  const plain = await emu.api('POST', '/v1/webhook_endpoints', {
    body: { url: 'https://example.com/p', emulator: { chaos: { duplicate: false } } },
  });
  const listed = await emu.endpoints();
  expect(listed.map((e) => [e.id, e.chaos])).toEqual([
    [plain.json.id, null],
    [created.json.id, { ...OFF, duplicate: 1, bad_signature: 0.5 }],
  ]);
});

test.each([
  [{ emulator: { chaos: { duplicate: 2 } } }, 'emulator.chaos.duplicate'],
  [{ emulator: { chaos: { stale_timestamp: 'yes' } } }, 'emulator.chaos.stale_timestamp'],
  [{ emulator: { chaos: { late: true } } }, 'emulator.chaos.late'],
  [{ emulator: { outcomes: [] } }, 'emulator.outcomes'],
])('the product create refuses %j with 400 naming %s', async (extra, param) => {
  const emu = emulator();
  const res = await emu.api('POST', '/v1/webhook_endpoints', {
    body: { url: 'https://example.com/h', ...extra },
  });
  expectApiError(res, 400, 'parameter_invalid', param);
  expect(await emu.endpoints()).toEqual([]);
});

test('PUT webhook_chaos sets every endpoint of the account, or those named; {} turns it off', async () => {
  const emu = emulator();
  const seed = (url: string) =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, { url });
  const a = await seed('https://example.com/a');
  const b = await seed('https://example.com/b');
  const all = await emu.control('PUT', `/accounts/${DEFAULT_ACCOUNT}/webhook_chaos`, {
    chaos: { stale_timestamp: true },
  });
  expect(all.data.map((e: { id: string; chaos: unknown }) => [e.id, e.chaos])).toEqual([
    [a.id, { ...OFF, stale_timestamp: 1 }],
    [b.id, { ...OFF, stale_timestamp: 1 }],
  ]);
  await emu.control('PUT', `/accounts/${DEFAULT_ACCOUNT}/webhook_chaos`, {
    chaos: {},
    endpoints: [b.id],
  });
  expect((await emu.endpoints()).map((e) => [e.id, e.chaos?.stale_timestamp ?? null])).toEqual([
    [b.id, null],
    [a.id, 1],
  ]);
  await emu.api('DELETE', `/v1/webhook_endpoints/${a.id}`);
  const put = (body: unknown, account = DEFAULT_ACCOUNT) =>
    emu.raw('PUT', `/accounts/${account}/webhook_chaos`, body);
  expectError(
    await put({ chaos: {}, endpoints: [b.id, a.id] }),
    400,
    'parameter_invalid',
    'endpoints.1',
  );
  expectError(await put({ chaos: { duplicate: -1 } }), 400, 'parameter_invalid', 'chaos.duplicate');
  expectError(await put({ chaos: {} }, 'acct_nope'), 404, 'resource_not_found', 'account_id');
  const gone = await emu.raw('GET', `/webhook_endpoints/${a.id}/receiver_report`);
  expectError(gone, 404, 'resource_not_found', 'endpoint_id');
});

test('a report with no delivery judges nothing: six findings, in order, not_judged', async () => {
  const emu = emulator();
  const e = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: 'https://example.com/h',
    chaos: { unknown_type: true },
  });
  const report = await emu.report(e.id);
  expect(report).toMatchObject({
    object: 'receiver_report',
    endpoint_id: e.id,
    account_id: DEFAULT_ACCOUNT,
    chaos: { ...OFF, unknown_type: 1 },
    verdict: 'not_judged',
  });
  expect(
    report.findings.map((f: { rule: string; verdict: string }) => [f.rule, f.verdict]),
  ).toEqual(
    [
      'genuine',
      'bad_signature',
      'stale_timestamp',
      'duplicate',
      'unknown_type',
      'out_of_order',
    ].map((r) => [r, 'not_judged']),
  );
});

test('what each extra sends: a stale timestamp, another secret, an unknown type with its own id', async () => {
  const hook = await receiver();
  const emu = emulator();
  const e = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: hook.url,
    chaos: { stale_timestamp: true, bad_signature: true, unknown_type: true },
  });
  hook.secret = e.secret;
  const event = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/events`, EVENT);
  await eventually(async () => (hook.received.length === 4 ? true : undefined), 'four requests');
  const list = await eventually(async () => {
    const d = await emu.deliveries();
    return d.every((x) => x.status !== 'pending') ? d : undefined;
  }, 'all answered');
  expect(list.map((d) => [d.chaos, d.expected, d.webhook_id, d.status])).toEqual([
    [null, '2xx', event.id, 'delivered'],
    ['bad_signature', '4xx', event.id, 'delivered'],
    ['stale_timestamp', '4xx', event.id, 'delivered'],
    ['unknown_type', '2xx', `${event.id}_unknown`, 'delivered'],
  ]);
  const [real, forged, stale, unknown] = hook.received;
  expect([real, forged, stale, unknown].map((r) => r!.verified)).toEqual([
    true,
    false,
    false,
    true,
  ]);
  expect(forged!.body).toBe(real!.body);
  expect(stale!.body).toBe(real!.body);
  // Signed correctly, ten minutes before its attempt: outside the 5-minute tolerance.
  const attemptSecond = Math.floor(Date.parse(list[2]!.attempts[0]!.wall_at) / 1000);
  expect(Number(stale!.headers['webhook-timestamp'])).toBe(attemptSecond - 600);
  expect(JSON.parse(unknown!.body)).toEqual({
    ...JSON.parse(real!.body),
    id: `${event.id}_unknown`,
    type: 'evaluation.emulator_unknown_type',
  });
  expect(unknown!.headers['webhook-id']).toBe(`${event.id}_unknown`);
  const detail = await emu.control('GET', `/webhook_deliveries/${list[3]!.id}`);
  expect(detail.payload).toBe(unknown!.body);
});

test('refused extras are never retried nor the endpoint failing; the real delivery retries as always', async () => {
  const hook = await receiver(() => 400);
  const emu = emulator({ webhookRetrySchedule: [0, 30_000, 60_000] });
  const e = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: hook.url,
    chaos: { bad_signature: true, duplicate: true },
  });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/events`, EVENT);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 90 });
  const list = await eventually(async () => {
    const d = await emu.deliveries();
    return d.every((x) => x.status !== 'pending') ? d : undefined;
  }, 'all finished');
  expect(list.map((d) => [d.chaos, d.status, d.attempts.map((a) => a.status_code)])).toEqual([
    [null, 'failed', [400, 400, 400]],
    ['bad_signature', 'failed', [400]],
    // Its event was never accepted: the duplicate ends unsent.
    ['duplicate', 'failed', []],
  ]);
  const report = await emu.report(e.id);
  const duplicate = report.findings.find((f) => f.rule === 'duplicate')!;
  expect(duplicate).toMatchObject({ verdict: 'not_judged', judged: 0 });
  expect(duplicate.evidence[0]).toMatchObject({ error: 'not_sent', status_code: null, at: null });
  expect(report.findings.map((f) => f.verdict)).toEqual([
    'fail',
    'pass',
    'not_judged',
    'not_judged',
    'not_judged',
    'not_judged',
  ]);
});

test('an event held back with no later one is sent 60 virtual seconds late', async () => {
  const hook = await receiver();
  const emu = emulator();
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: hook.url,
    chaos: { out_of_order: 1 },
  });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/events`, EVENT);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 59.999 });
  const [held] = await emu.deliveries();
  expect(held).toMatchObject({
    chaos: 'out_of_order',
    next_attempt_at: '2026-01-01T00:01:00.000Z',
  });
  expect(hook.received).toHaveLength(0);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 0.001 });
  await eventually(async () => (hook.received.length === 1 ? true : undefined), 'sent');
});

test('chaos is drawn from the seed per endpoint and event: the same seed repeats it, and no id moves', async () => {
  const run = async (seed: string) => {
    const emu = emulator({ seed, webhooks: true });
    const e = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
      id: 'whe_fixed',
      url: 'http://127.0.0.1:2/h',
      chaos: { bad_signature: 0.5, unknown_type: 0.5 },
    });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push((await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/events`, EVENT)).id);
    const drawn = (await emu.deliveries())
      .filter((d) => d.chaos)
      .map((d) => `${d.event_id} ${d.chaos}`);
    return { endpoint: e.id, ids, drawn };
  };
  const [a, again, other] = [await run('0'), await run('0'), await run('1')];
  expect(again).toEqual(a);
  expect(a.drawn.length).toBeGreaterThan(3);
  expect(a.drawn.length).toBeLessThan(21);
  expect(other.drawn.map((d) => d.split(' ')[1])).not.toEqual(a.drawn.map((d) => d.split(' ')[1]));
});

test("a scenario file's webhook endpoint takes chaos; one the file gets wrong is refused naming it", async () => {
  const emu = emulator();
  const scenario = (chaos: unknown) => ({
    scenario: {
      name: 'chaos',
      accounts: [
        {
          id: 'acct_chaos',
          webhook_endpoints: [{ id: 'whe_chaos', url: 'http://127.0.0.1:2/hooks', chaos }],
        },
      ],
    },
  });
  const loaded = await emu.raw('POST', '/scenarios/load', scenario({ duplicate: true }));
  expect(loaded.status).toBe(200);
  const listed = await emu.control('GET', '/webhook_endpoints?account=acct_chaos');
  expect(listed.data.map((e: { id: string; chaos: unknown }) => [e.id, e.chaos])).toEqual([
    ['whe_chaos', { ...OFF, duplicate: 1 }],
  ]);
  const bad = await emu.raw('POST', '/scenarios/load', scenario({ duplicate: 'often' }));
  const error = expectError(
    bad,
    400,
    'parameter_invalid',
    'scenario.accounts.0.webhook_endpoints.0.chaos.duplicate',
  );
  expect(error.message).toMatch(/expected a probability from 0 to 1, or true or false/);
  // Refused whole: the world loaded before stands.
  expect((await emu.control('GET', '/webhook_endpoints?account=acct_chaos')).data).toHaveLength(1);
});
