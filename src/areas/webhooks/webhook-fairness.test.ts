/**
 * Issue 36 item 2: receivers that never answer hold only their own endpoints, whatever their
 * number; an attempt waiting its turn is not shown in flight. Real local receivers, deliveries
 * verified with `standardwebhooks`; how long the healthy one waits is the bench's figure
 * (`BENCH_ONLY=healthy`), not asserted here.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { eventually, type Receiver, startReceiver } from '../../../test/webhook-receiver.js';
import type { ControlClient, RunningEmulator, TestAccount } from '../../tools/harness/index.js';
import { startEmulator } from '../../tools/harness/index.js';

const HANGING_ACCOUNTS = 4;
const ENDPOINTS = 50;
const HANGING = HANGING_ACCOUNTS * ENDPOINTS;

let running: RunningEmulator;
let control: ControlClient;
beforeAll(async () => {
  // No hanging attempt times out during the test.
  running = await startEmulator({ webhookTimeoutMs: 120_000 });
  control = running.control;
});
afterAll(() => running.stop());

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(hold: boolean): Promise<Receiver> {
  const r = await startReceiver(() => 204);
  r.hold = hold;
  receivers.push(r);
  return r;
}

const fire = (account: TestAccount) =>
  account.triggerEvent('evaluation.succeeded', {
    data: { object: { id: 'eval_1', object: 'evaluation', status: 'succeeded' } },
  });

/** The account's attempts as the control API shows them (every delivery fits one page). */
async function attemptsOf(account: TestAccount) {
  const { data } = await control.listWebhookDeliveries({ account: account.account.id, limit: 100 });
  return { deliveries: data, attempts: data.flatMap((d) => d.attempts) };
}

test('a healthy receiver is delivered while 200 attempts of other accounts hang', {
  timeout: 90_000,
}, async () => {
  const hanging = await receiver(true);
  const healthy = await receiver(false);
  const others: TestAccount[] = [];
  for (let a = 0; a < HANGING_ACCOUNTS; a++) {
    const account = await control.newAccount();
    const endpoints = Array.from({ length: ENDPOINTS }, () => ({ url: hanging.url }));
    await Promise.all(endpoints.map((e) => account.seedWebhookEndpoint(e)));
    others.push(account);
  }
  const account = await control.newAccount();
  const endpoint = await account.seedWebhookEndpoint({ url: healthy.url });
  healthy.secret = endpoint.secret;

  for (const other of others) await fire(other);
  await fire(account);
  await eventually(
    async () => (healthy.received.length > 0 ? true : undefined),
    'the healthy delivery',
    30_000,
  );
  await eventually(
    async () => (hanging.received.length === HANGING ? true : undefined),
    'every hanging request',
    30_000,
  );
  const [delivered] = (await attemptsOf(account)).deliveries;
  expect(delivered).toMatchObject({ status: 'delivered' });
  expect(delivered!.attempts).toMatchObject([{ status_code: 204, in_flight: false }]);
  expect(healthy.received[0]).toMatchObject({ type: 'evaluation.succeeded', verified: true });
  // ... while every hanging one is still open: sent, unanswered, shown in flight.
  for (const other of others) {
    const { deliveries, attempts } = await attemptsOf(other);
    expect(deliveries).toHaveLength(ENDPOINTS);
    expect(deliveries.every((d) => d.status === 'pending')).toBe(true);
    expect(attempts).toHaveLength(ENDPOINTS);
    expect(attempts.every((a) => a.in_flight && a.status_code === null)).toBe(true);
  }
});
