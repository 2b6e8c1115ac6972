import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  ControlError,
  createControlClient,
  type ReceiverReport,
  type RunningEmulator,
  startEmulator,
} from '../../src/tools/harness/index.js';
import { eventually } from '../wait.js';
import { startReceiver } from '../webhook-receiver.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.stop());

test('startEmulator listens on a free loopback port and answers health and the default key', async () => {
  expect(emu.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(await emu.control.health()).toMatchObject({ status: 'ok', version: '0.1.0' });
  const res = await fetch(`${emu.baseUrl}/v1/keys/me`, {
    headers: { authorization: 'Bearer svc_test_emulator_default' },
  });
  expect(res.status).toBe(200);
});

test('newAccount gives an isolated account whose key works and whose clock is manual', async () => {
  const a = await emu.control.newAccount();
  const b = await emu.control.newAccount({ name: 'other' });
  expect(a.account.id).not.toBe(b.account.id);
  expect(a.key.secret).toMatch(/^svc_/);
  const me = await fetch(`${a.apiUrl}/keys/me`, { headers: a.headers });
  expect(((await me.json()) as { id: string }).id).toBe(a.key.id);

  const advanced = await a.clock.advance(90);
  expect(advanced).toMatchObject({ now: '2026-01-01T00:01:30.000Z', mode: 'manual' });
  expect((await b.clock.get()).now).toBe('2026-01-01T00:00:00.000Z');
  expect((await a.clock.advanceTo('2026-01-02T00:00:00.000Z')).now).toBe(
    '2026-01-02T00:00:00.000Z',
  );
  expect((await a.clock.setMode('scaled:10')).mode).toBe('scaled:10');
});

test('the account helpers seed resources on that account only', async () => {
  const acct = await emu.control.newAccount({ features: ['twins'] });
  const run = await acct.seedEvaluation({ spec: { path: 'specs/pick.yaml', name: 'pick' } });
  expect(run.status).toBe('queued');
  const { transitions } = await acct.clock.advance(5);
  expect(transitions.map((t) => t.to).at(-1)).toBe('succeeded');
  expect((await acct.seedTwin({ status: 'succeeded', generate_files: 2 })).file_count).toBe(2);
  const endpoint = await acct.seedWebhookEndpoint({ url: 'https://example.test/hook' });
  expect(endpoint.object).toBe('webhook_endpoint');
  const readOnly = await acct.createKey({ name: 'read', scopes: ['usage:read'] });
  expect(readOnly.scopes).toEqual(['usage:read']);
  expect((await emu.control.revokeKey(readOnly.id)).revoked_at).not.toBeNull();
  expect(await acct.reset()).toEqual({ scenario: 'default', account: acct.account.id });
});

test('the control client covers accounts, clocks, seeds, scenarios and the document', async () => {
  const { account } = await emu.control.createAccount({ token_balance: 500 });
  expect((await emu.control.getAccount(account.id)).token_balance).toBe(500);
  expect((await emu.control.setClock(account.id, { now: '2026-03-01T00:00:00.000Z' })).now).toBe(
    '2026-03-01T00:00:00.000Z',
  );
  expect((await emu.control.seedEnvironment(account.id, { name: 'kitchen' })).object).toBe(
    'environment',
  );
  expect((await emu.control.seedObject(account.id, { name: 'mug' })).object).toBe('object');
  expect((await emu.control.listScenarios()).data.map((s) => s.name)).toContain('default');
  const doc = await emu.control.openapi();
  expect(doc.openapi).toBe('3.1.0');
});

test('a control call that fails throws ControlError with the error envelope', async () => {
  const err = await emu.control.getClock('acct_missing').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ControlError);
  expect(err).toMatchObject({ status: 404, error: { code: 'resource_not_found' } });
  const bad = await emu.control.advanceClock('acct_missing', { seconds: -1 }).catch((e) => e);
  expect(bad).toMatchObject({ status: 400, error: { code: 'parameter_invalid' } });
});

test('with a control token the harness client sends it; a client without it gets 401', async () => {
  const guarded = await startEmulator({ controlToken: 'sesame', scenario: 'default' });
  try {
    expect((await guarded.control.health()).status).toBe('ok');
    const anonymous = createControlClient(guarded.baseUrl);
    await expect(anonymous.health()).rejects.toMatchObject({ status: 401 });
  } finally {
    await guarded.stop();
  }
});

test('stop closes the server: the port refuses connections afterwards', async () => {
  const short = await startEmulator();
  await short.stop();
  await expect(fetch(`${short.baseUrl}/_control/health`)).rejects.toThrow();
  // A second stop (an afterAll after a finally) does nothing more.
  await expect(short.stop()).resolves.toBeUndefined();
});

test('the fault and journal methods drive /_control/faults and /_control/requests', async () => {
  const a = await emu.control.newAccount();
  const rule = await emu.control.createFault({
    match: { account: a.account.id, operation: 'getCurrentKey' },
    respond: { status: 429, retry_after: 4 },
    times: 1,
  });
  expect(rule).toMatchObject({ object: 'fault_rule', remaining: 1, hits: 0 });
  const faulted = await fetch(`${a.apiUrl}/keys/me`, { headers: a.headers });
  expect(faulted.status).toBe(429);
  expect(faulted.headers.get('retry-after')).toBe('4');
  expect((await fetch(`${a.apiUrl}/keys/me`, { headers: a.headers })).status).toBe(200);
  const [listed] = (await emu.control.listFaults()).data.filter((r) => r.id === rule.id);
  expect(listed).toMatchObject({ hits: 1, remaining: 0 });
  expect(await emu.control.deleteFault(rule.id)).toEqual({ id: rule.id, deleted: true });

  const journal = await emu.control.listRequests({ account: a.account.id });
  expect(journal.data.map((e) => [e.status, e.code, e.fault_id])).toEqual([
    [429, 'rate_limit_exceeded', rule.id],
    [200, null, null],
  ]);
  expect(await emu.control.clearRequests({ account: a.account.id })).toEqual({ deleted: 2 });
  expect((await emu.control.listRequests({ account: a.account.id })).data).toEqual([]);
});

test('a webhook delivery names the started emulator in its links and is listed by the client', async () => {
  const bodies: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      bodies.push(body);
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = receiver.address() as AddressInfo;
    const a = await emu.control.newAccount();
    const json = { ...a.headers, 'content-type': 'application/json' };
    const hook = await fetch(`${a.apiUrl}/webhook_endpoints`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook` }),
    });
    expect(hook.status).toBe(201);
    const run = await fetch(`${a.apiUrl}/evaluations`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ spec: { path: 'specs/pick_place.py', name: 'pick_place' } }),
    });
    expect(run.status).toBe(201);
    const list = await eventually(async () => {
      const page = await emu.control.listWebhookDeliveries({ account: a.account.id });
      return page.data[0]?.status === 'delivered' ? page : undefined;
    }, 'the delivery');
    expect(list.data.map((d) => [d.event_type, d.status])).toEqual([
      ['evaluation.queued', 'delivered'],
    ]);
    const served = await fetch(`${a.apiUrl}/events/${list.data[0]!.event_id}`, {
      headers: a.headers,
    });
    expect(bodies).toEqual([await served.text()]);
    expect(bodies[0]).toContain(`${emu.baseUrl}/v1/evaluations/`);
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('receiver chaos through the harness: setWebhookChaos on an account, receiverReport of an endpoint', async () => {
  // A receiver that never verifies: it accepts the forged delivery too.
  const naive = await startReceiver(() => 204);
  try {
    const acct = await emu.control.newAccount();
    const endpoint = await acct.seedWebhookEndpoint({ url: naive.url });
    const other = await acct.seedWebhookEndpoint({ url: 'http://127.0.0.1:2/nobody' });
    const set = await acct.setWebhookChaos({ bad_signature: true }, [endpoint.id]);
    expect(set.data.map((e) => [e.id, e.chaos?.bad_signature])).toEqual([[endpoint.id, 1]]);
    await acct.triggerEvent('evaluation.succeeded', {
      data: { object: { id: 'eval_01KDVDNA0000000000000000EX', object: 'evaluation' } },
    });
    const report = await eventually(async () => {
      const r = await emu.control.receiverReport(endpoint.id);
      // `genuine` and `bad_signature` each judged once: both answered.
      return r.findings.filter((f) => f.judged === 1).length === 2 ? r : undefined;
    }, 'the real and the forged delivery answered');
    const failed: ReceiverReport['findings'][number]['rule'][] = report.findings
      .filter((f) => f.verdict === 'fail')
      .map((f) => f.rule);
    expect(report).toMatchObject({ object: 'receiver_report', verdict: 'fail' });
    expect(failed).toEqual(['bad_signature']);
    expect(report.findings.find((f) => f.rule === 'bad_signature')!.evidence[0]).toMatchObject({
      chaos: 'bad_signature',
      status_code: 204,
      verdict: 'fail',
    });
    // The other endpoint has no chaos: its report judges only its real deliveries (none answered).
    expect(await emu.control.receiverReport(other.id)).toMatchObject({
      chaos: null,
      verdict: 'not_judged',
    });
    const off = await emu.control.setWebhookChaos(acct.account.id, { chaos: {} });
    expect(off.data.map((e) => e.chaos)).toEqual([null, null]);
    const missing = await emu.control.receiverReport('whe_missing').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, error: { code: 'resource_not_found' } });
  } finally {
    await naive.close();
  }
});
