/**
 * Webhook deliveries (inferred: the API document shows no delivery, signing or retry): every
 * committed event goes to the account's matching endpoints, POSTed in event order and signed per
 * the Standard Webhooks convention (docs/runtime.md "Deliveries"), through the real app and a
 * local receiver.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, expect, test } from 'vitest';
import { testEmulator } from '../../../test/helpers.js';
import { eventually } from '../../../test/wait.js';
import type { EmulatorOptions } from '../../emulator.js';

const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A local receiver; `answer(n)` is the status of the n-th request (0-based), default 204. */
async function receiver(answer: (n: number) => number = () => 204) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = answer(n);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received };
}

/** An emulator (closed after the test) and a fresh account with full scopes. */
async function setup(options: EmulatorOptions = {}, account: Record<string, unknown> = {}) {
  const emu = testEmulator({ webhookRetrySchedule: [0, 30, 60], ...options });
  cleanups.push(() => emu.emulator.close());
  const created = await emu.control('POST', '/accounts', account);
  const accountId: string = created.account.id;
  const secret: string = created.key.secret;
  const call = (method: string, path: string, body?: unknown) =>
    emu.api(method, path, { secret, body });
  const endpoint = async (url: string, events?: string[]) => {
    const res = await call('POST', '/v1/webhook_endpoints', events ? { url, events } : { url });
    expect(res.status).toBe(201);
    return res.json as { id: string; secret: string };
  };
  const evaluate = async (body: Record<string, unknown> = { spec: SPEC }) => {
    const res = await call('POST', '/v1/evaluations', body);
    expect(res.status).toBe(201);
    return res.json as { id: string };
  };
  const advance = (seconds: number) =>
    emu.control('POST', `/accounts/${accountId}/clock/advance`, { seconds });
  const deliveries = async (query = '') =>
    (await emu.control('GET', `/webhook_deliveries?account=${accountId}${query}`)).data as {
      id: string;
      event_id: string;
      event_type: string;
      endpoint_id: string;
      status: string;
      attempts: {
        at: string;
        status_code: number | null;
        error: string | null;
        in_flight: boolean;
      }[];
    }[];
  /** Polls until `count` deliveries exist and none is pending. */
  const settled = (count: number) =>
    eventually(async () => {
      const list = await deliveries();
      return list.length >= count && list.every((d) => d.status !== 'pending') ? list : undefined;
    }, `${count} settled deliveries`);
  /** Polls until `count` attempts in all have been answered. */
  const attempted = (count: number) =>
    eventually(async () => {
      const made = (await deliveries()).flatMap((d) => d.attempts);
      return made.length >= count && made.every((a) => !a.in_flight) ? true : undefined;
    }, `${count} answered attempts`);
  return { emu, accountId, call, endpoint, evaluate, advance, deliveries, settled, attempted };
}

/** docs/runtime.md "Deliveries": what a receiver does, with the `standardwebhooks` library. */
function verify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  try {
    new Webhook(secret).verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

const types = (received: Received[]) => received.map((r) => JSON.parse(r.body).type);

test('each event of a run is POSTed in order, signed, with the body GET /v1/events/{id} shows', async () => {
  const hook = await receiver();
  const t = await setup();
  const endpoint = await t.endpoint(hook.url);
  await t.evaluate({ spec: SPEC, webhook_metadata: { build: '7' } });
  await t.advance(10);
  const list = await t.settled(3);
  expect(list.map((d) => [d.event_type, d.endpoint_id, d.status, d.attempts.length])).toEqual([
    ['evaluation.queued', endpoint.id, 'delivered', 1],
    ['evaluation.processing', endpoint.id, 'delivered', 1],
    ['evaluation.succeeded', endpoint.id, 'delivered', 1],
  ]);
  expect(list[0]!.attempts[0]).toMatchObject({ status_code: 204, error: null });
  expect(types(hook.received)).toEqual([
    'evaluation.queued',
    'evaluation.processing',
    'evaluation.succeeded',
  ]);
  for (const [i, r] of hook.received.entries()) {
    const served = await t.call('GET', `/v1/events/${list[i]!.event_id}`);
    expect(r.body).toBe(served.text);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['webhook-id']).toBe(list[i]!.event_id);
    // Wall time by default (receivers check it against theirs), not the event's virtual time.
    expect(r.headers['webhook-timestamp']).not.toBe(
      String(Math.floor(Date.parse(served.json.created_at) / 1000)),
    );
    expect(verify(endpoint.secret, r.headers, r.body)).toBe(true);
    expect(verify(endpoint.secret, r.headers, `${r.body} `)).toBe(false);
    expect(verify(`${endpoint.secret.slice(0, -1)}A`, r.headers, r.body)).toBe(false);
  }
  expect(JSON.parse(hook.received[2]!.body).webhook_metadata).toEqual({ build: '7' });
  // Filters of the control route.
  expect(await t.deliveries(`&event=${list[1]!.event_id}`)).toHaveLength(1);
  expect(await t.deliveries(`&endpoint=${endpoint.id}&status=delivered`)).toHaveLength(3);
  expect(await t.deliveries('&status=failed')).toEqual([]);
});

test('with virtual timestamps, the same seed and requests give the same bytes and signatures', async () => {
  const runs: Received[][] = [];
  for (let i = 0; i < 2; i++) {
    const hook = await receiver();
    const t = await setup({ webhookTimestamps: 'virtual' });
    await t.endpoint(hook.url);
    await t.evaluate();
    await t.advance(10);
    await t.settled(3);
    runs.push(hook.received);
  }
  const strip = (rs: Received[]) =>
    rs.map((r) => [r.body, r.headers['webhook-signature'], r.headers['webhook-timestamp']]);
  expect(strip(runs[1]!)).toEqual(strip(runs[0]!));
});

test('an endpoint gets only the types its events list matches (exact, prefix wildcard)', async () => {
  const exact = await receiver();
  const prefix = await receiver();
  const twins = await receiver();
  const t = await setup();
  const a = await t.endpoint(exact.url, ['evaluation.succeeded']);
  const b = await t.endpoint(prefix.url, ['evaluation.*']);
  await t.endpoint(twins.url, ['twin.*']);
  await t.evaluate();
  await t.advance(10);
  await t.settled(4);
  expect(types(exact.received)).toEqual(['evaluation.succeeded']);
  expect(types(prefix.received)).toEqual([
    'evaluation.queued',
    'evaluation.processing',
    'evaluation.succeeded',
  ]);
  expect(twins.received).toEqual([]);
  expect((await t.deliveries(`&endpoint=${a.id}`)).length).toBe(1);
  expect((await t.deliveries(`&endpoint=${b.id}`)).length).toBe(3);
});

test('a 500 is retried when the clock reaches its retry, then delivered; one that always fails is failed after the last', async () => {
  const flaky = await receiver((n) => (n === 0 ? 500 : 200));
  const down = await receiver(() => 503);
  const t = await setup();
  const ok = await t.endpoint(flaky.url, ['evaluation.queued']);
  const bad = await t.endpoint(down.url, ['evaluation.queued']);
  await t.evaluate();
  // The schedule here is 0, 30 ms, 60 ms of virtual time: each retry waits for the clock.
  await t.attempted(2);
  await t.advance(0.03);
  await t.attempted(3);
  await t.advance(0.06);
  const list = await t.settled(2);
  const byEndpoint = (id: string) => list.find((d) => d.endpoint_id === id)!;
  expect(byEndpoint(ok.id).status).toBe('delivered');
  expect(byEndpoint(ok.id).attempts.map((a) => [a.status_code, a.at])).toEqual([
    [500, '2026-01-01T00:00:00.000Z'],
    [200, '2026-01-01T00:00:00.030Z'],
  ]);
  expect(byEndpoint(bad.id).status).toBe('failed');
  expect(byEndpoint(bad.id).attempts.map((a) => [a.status_code, a.at])).toEqual([
    [503, '2026-01-01T00:00:00.000Z'],
    [503, '2026-01-01T00:00:00.030Z'],
    [503, '2026-01-01T00:00:00.090Z'],
  ]);
  // The same bytes each attempt.
  expect(new Set(flaky.received.map((r) => r.body)).size).toBe(1);
});

test('a network error is recorded and retried', async () => {
  const t = await setup({ webhookRetrySchedule: [0, 10] });
  // A port nothing listens on: bind one, then close it.
  const gone = await receiver();
  const { url } = gone;
  await cleanups.pop()!();
  await t.endpoint(url, ['evaluation.queued']);
  await t.evaluate();
  await t.attempted(1);
  await t.advance(0.01);
  const [d] = await t.settled(1);
  expect(d!.status).toBe('failed');
  expect(d!.attempts).toHaveLength(2);
  expect(d!.attempts[0]).toMatchObject({ status_code: null, error: expect.any(String) });
});

test('an event whose transaction rolled back is never delivered', async () => {
  const hook = await receiver();
  const t = await setup({}, { limits: { concurrent_runs: 1 } });
  await t.endpoint(hook.url);
  await t.evaluate();
  // The second create records its queued event, then the concurrency check rolls it back.
  const refused = await t.call('POST', '/v1/evaluations', { spec: SPEC });
  expect(refused.status).toBeGreaterThanOrEqual(400);
  const list = await t.settled(1);
  await new Promise((r) => setTimeout(r, 50));
  expect((await t.deliveries()).length).toBe(1);
  expect(list[0]!.event_type).toBe('evaluation.queued');
  expect(hook.received).toHaveLength(1);
});

test('--no-webhooks records events but delivers nothing', async () => {
  const hook = await receiver();
  const t = await setup({ webhooks: false });
  await t.endpoint(hook.url);
  await t.evaluate();
  await t.advance(10);
  expect((await t.call('GET', '/v1/events')).json.data).toHaveLength(3);
  await new Promise((r) => setTimeout(r, 50));
  expect(await t.deliveries()).toEqual([]);
  expect(hook.received).toEqual([]);
});

test('a deleted endpoint gets nothing more; a reset forgets deliveries', async () => {
  const hook = await receiver();
  const t = await setup();
  const endpoint = await t.endpoint(hook.url);
  await t.evaluate();
  await t.settled(1);
  expect((await t.call('DELETE', `/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
  await t.advance(10);
  await new Promise((r) => setTimeout(r, 50));
  expect(types(hook.received)).toEqual(['evaluation.queued']);
  expect(await t.deliveries()).toHaveLength(1);
  await t.emu.control('POST', '/reset', {});
  expect((await t.emu.control('GET', '/webhook_deliveries')).data).toEqual([]);
});
