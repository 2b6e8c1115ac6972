/**
 * Webhook retries on the account's virtual clock, redelivery, fired events and disabled endpoints
 * (docs/runtime.md "Deliveries"), as an SDK's receiver tests see them: a listening emulator, the
 * harness, real local receivers verifying each delivery with `standardwebhooks`.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../../test/wait.js';
import { type Receiver, startReceiver } from '../../../test/webhook-receiver.js';
import type { ControlClient, RunningEmulator, TestAccount } from '../../tools/harness/index.js';
import { startEmulator } from '../../tools/harness/index.js';

const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();

let running: RunningEmulator;
let control: ControlClient;
beforeAll(async () => {
  running = await startEmulator({ webhookTimeoutMs: 1500 });
  control = running.control;
});
afterAll(() => running.stop());

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(answer?: (n: number) => number): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

/** A fresh account with an endpoint at `r` for `events`; the receiver learns its secret. */
async function accountWith(r: Receiver, events = ['*'], clock?: string) {
  const account = await control.newAccount();
  if (clock) await account.clock.setMode(clock);
  const res = await fetch(`${account.apiUrl}/webhook_endpoints`, {
    method: 'POST',
    headers: { ...account.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url: r.url, events }),
  });
  const endpoint = (await res.json()) as { id: string; secret: string };
  r.secret = endpoint.secret;
  return { account, endpoint };
}

async function evaluate(account: TestAccount) {
  const res = await fetch(`${account.apiUrl}/evaluations`, {
    method: 'POST',
    headers: { ...account.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ spec: SPEC }),
  });
  expect(res.status).toBe(201);
}

/** The account's deliveries once `attempts` attempts in all were answered. */
const afterAttempts = (account: TestAccount, attempts: number) =>
  eventually(async () => {
    const { data } = await control.listWebhookDeliveries({ account: account.account.id });
    const made = data.flatMap((d) => d.attempts);
    return made.length >= attempts && made.every((a) => !a.in_flight) ? data : undefined;
  }, `${attempts} attempts`);

/** Lets the emulator's background work run, so that an attempt that should not happen would. */
const quiet = () => new Promise((r) => setTimeout(r, 100));

test('500, 500, 200: three attempts at the schedule, each only once the clock reaches it', async () => {
  const hook = await receiver((n) => (n < 2 ? 500 : 200));
  const { account } = await accountWith(hook, ['evaluation.queued']);
  await evaluate(account);
  let [d] = await afterAttempts(account, 1);
  expect(d!.next_attempt_at).toBe(iso(5_000));
  await account.clock.advance(4.999);
  await quiet();
  expect(hook.received).toHaveLength(1);
  await account.clock.advance(0.001);
  [d] = await afterAttempts(account, 2);
  expect(d!.next_attempt_at).toBe(iso(5_000 + 300_000));
  await account.clock.advance(299);
  await quiet();
  expect(hook.received).toHaveLength(2);
  await account.clock.advance(1);
  [d] = await afterAttempts(account, 3);
  expect(d!.status).toBe('delivered');
  expect(d!.next_attempt_at).toBeNull();
  expect(d!.attempts.map((a) => [a.number, a.at, a.status_code])).toEqual([
    [1, iso(0), 500],
    [2, iso(5_000), 500],
    [3, iso(305_000), 200],
  ]);
  expect(hook.received.map((r) => r.verified)).toEqual([true, true, true]);
  expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
});

test('an advance past every retry makes them all, in due order, at their own virtual times', async () => {
  const hook = await receiver(() => 503);
  const { account, endpoint } = await accountWith(hook, ['evaluation.queued']);
  await evaluate(account);
  await afterAttempts(account, 1);
  await account.clock.advance(2 * 86_400);
  const [d] = await afterAttempts(account, 8);
  expect(d!.status).toBe('failed');
  const offsets = [0, 5_000, 305_000, 2_105_000, 9_305_000, 27_305_000, 63_305_000, 99_305_000];
  expect(d!.attempts.map((a) => a.at)).toEqual(offsets.map(iso));
  expect(hook.received.every((r) => r.verified)).toBe(true);
  // Two days of failures do not disable the endpoint (five do).
  const listed = await fetch(`${account.apiUrl}/webhook_endpoints/${endpoint.id}`, {
    headers: account.headers,
  });
  expect(((await listed.json()) as { status: string }).status).toBe('enabled');
});

test('on a scaled clock retries come with virtual time, without an advance', async () => {
  const hook = await receiver((n) => (n === 0 ? 500 : 204));
  const { account } = await accountWith(hook, ['evaluation.queued'], 'scaled:1000');
  await evaluate(account);
  const [d] = await eventually(async () => {
    const { data } = await control.listWebhookDeliveries({ account: account.account.id });
    return data[0]?.status === 'delivered' ? data : undefined;
  }, 'delivered');
  expect(d!.attempts.map((a) => a.status_code)).toEqual([500, 204]);
  const [first, second] = d!.attempts.map((a) => Date.parse(a.at));
  expect(second! - first!).toBe(5_000);
});

test('redeliver sends a finished delivery again now, as a new series; a pending one is refused', async () => {
  const hook = await receiver(() => 204);
  const { account } = await accountWith(hook, ['evaluation.queued']);
  await evaluate(account);
  const [d] = await afterAttempts(account, 1);
  expect(d!.status).toBe('delivered');
  await account.clock.advance(60);
  const again = await control.redeliver(d!.id);
  expect(again).toMatchObject({ status: 'pending', next_attempt_at: iso(60_000) });
  const [done] = await afterAttempts(account, 2);
  expect(done!.attempts.map((a) => [a.series, a.number, a.at])).toEqual([
    [1, 1, iso(0)],
    [2, 1, iso(60_000)],
  ]);
  expect(hook.received.map((r) => [r.type, r.verified])).toEqual([
    ['evaluation.queued', true],
    ['evaluation.queued', true],
  ]);
  expect(hook.received[1]!.body).toBe(hook.received[0]!.body);

  hook.hold = true;
  await control.redeliver(d!.id);
  const refused = await fetch(`${running.baseUrl}/_control/webhook_deliveries/${d!.id}/redeliver`, {
    method: 'POST',
  });
  expect(refused.status).toBe(409);
  expect(((await refused.json()) as { error: unknown }).error).toMatchObject({
    code: 'delivery_pending',
  });
  const unknown = await fetch(`${running.baseUrl}/_control/webhook_deliveries/whdl_99999999`);
  expect(unknown.status).toBe(404);
});

test('triggerEvent fires any type: listed by GET /v1/events and delivered, as the real one', async () => {
  const hook = await receiver(() => 204);
  const { account } = await accountWith(hook, ['training_run.*', 'webhook_endpoint.*']);
  const run = await account.seedRun({
    kind: 'training_run',
    policy: 'pol_01KA0000000000000000PANDA1',
    dataset: 'ds_01KA0000000000000000PANDA1',
    status: 'failed',
  });
  const event = await account.triggerEvent('training_run.failed', { resource: run.id as string });
  expect(event).toMatchObject({
    object: 'event',
    type: 'training_run.failed',
    data: { object: { id: run.id, object: 'training_run', status: 'failed' } },
  });
  const listed = await fetch(`${account.apiUrl}/events?type=training_run.failed`, {
    headers: account.headers,
  });
  expect(((await listed.json()) as { data: unknown[] }).data).toEqual([event]);
  await eventually(async () => (hook.received.length === 1 ? true : undefined), 'delivery');
  expect(hook.received[0]).toMatchObject({ type: 'training_run.failed', verified: true });
  expect(JSON.parse(hook.received[0]!.body)).toEqual(event);

  const given = { id: 'train_given', object: 'training_run', status: 'failed', extra: 1 };
  const fired = await account.triggerEvent('training_run.failed', { data: { object: given } });
  expect(fired.data).toEqual({ object: given, previous_status: null });

  const bad = async (body: unknown) => {
    const res = await fetch(`${running.baseUrl}/_control/accounts/${account.account.id}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, error: ((await res.json()) as { error: unknown }).error };
  };
  expect(await bad({ type: 'training_run.exploded' })).toMatchObject({
    status: 400,
    error: { code: 'parameter_invalid', param: 'type' },
  });
  expect(await bad({ type: 'twin.succeeded' })).toMatchObject({
    status: 400,
    error: { code: 'parameter_invalid', param: 'resource' },
  });
  expect(await bad({ type: 'training_run.failed', data: { object: { id: 1 } } })).toMatchObject({
    status: 400,
    error: { code: 'parameter_invalid', param: 'data.object' },
  });
});

test('receivers that never answer hold only their own endpoints, and show their attempts in flight', async () => {
  const slow = await receiver(() => 204);
  slow.hold = true;
  const fast = await receiver(() => 204);
  const { account } = await accountWith(slow, ['evaluation.queued']);
  // More hanging endpoints than attempts run at once (8): each gives its slot back while it hangs.
  for (let i = 0; i < 9; i++)
    await account.seedWebhookEndpoint({ url: slow.url, events: ['evaluation.queued'] });
  const res = await fetch(`${account.apiUrl}/webhook_endpoints`, {
    method: 'POST',
    headers: { ...account.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url: fast.url, events: ['evaluation.queued'] }),
  });
  fast.secret = ((await res.json()) as { secret: string }).secret;
  await evaluate(account);
  const inFlight = await eventually(async () => {
    const { data } = await control.listWebhookDeliveries({ account: account.account.id });
    const held = data.find((d) => d.url === slow.url);
    const sent = data.find((d) => d.url === fast.url);
    return held?.attempts[0]?.in_flight && sent?.status === 'delivered' ? held : undefined;
  }, 'one delivered while the other hangs');
  expect(inFlight.attempts[0]).toMatchObject({ in_flight: true, status_code: null });
  // An advance answers while the receiver still holds its request.
  await account.clock.advance(10);
  // The ten attempts take turns for the eight slots, each given back after 250 ms of hanging: on a
  // busy machine the last ones reach the receiver after the advance has answered.
  await eventually(
    async () => (slow.received.length === 10 ? true : undefined),
    'all ten attempts received',
  );
  expect(slow.received.length).toBe(10);
  const [timedOut] = await eventually(async () => {
    const { data } = await control.listWebhookDeliveries({ account: account.account.id });
    const held = data.find((d) => d.url === slow.url)!;
    return held.attempts[0]?.in_flight ? undefined : [held];
  }, 'timeout');
  expect(timedOut!.attempts[0]).toMatchObject({ error: 'timeout', in_flight: false });
  expect(timedOut!.status).toBe('pending');
});
