/**
 * Webhooks in the inspector, in Debian's headless chromium (issue 30): endpoints without their
 * signing secrets, deliveries with their attempts and next attempt time, a delivery's payload and
 * the receiver's answers (issue 35), and a redelivery from the page that reaches a local receiver,
 * signed as every delivery is.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually, type Receiver, startReceiver } from '../webhook-receiver.js';
import { inspectorSetup, openInspector, screenshot } from './support.js';

const ui = inspectorSetup({ webhookRetrySchedule: [0, 5_000, 300_000] });
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200, body: '{"received": true}' }));
});

afterAll(async () => {
  await receiver?.close();
});

const EVENT = {
  type: 'evaluation.succeeded',
  data: {
    object: { id: 'eval_01KDVDNA0000000000000000EX', object: 'evaluation', status: 'succeeded' },
  },
} as const;

test('a delivery shows its payload and the answers; a redelivery from the page reaches a local receiver', async () => {
  const { control } = ui.emulator;
  const { account } = await control.createAccount({ name: 'hooks' });
  const endpoint = await control.seedWebhookEndpoint(account.id, {
    url: receiver.url,
    description: 'CI receiver',
  });
  receiver.secret = endpoint.secret;
  await control.seedWebhookEndpoint(account.id, { url: 'http://127.0.0.1:2/down' });
  await control.triggerEvent(account.id, EVENT);
  await eventually(
    async () => (receiver.received.length === 1 ? true : undefined),
    'the first delivery',
  );
  const delivered = await eventually(async () => {
    const list = await control.listWebhookDeliveries({
      account: account.id,
      endpoint: endpoint.id,
    });
    return list.data[0]?.status === 'delivered' ? list.data[0] : undefined;
  }, 'delivered');

  const { page, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    `view=webhooks&account=${account.id}`,
  );
  const row = page.locator(`tr[data-delivery="${delivered.id}"]`);
  await row.click();
  const detail = page.locator('aside.detail');
  // What was sent, byte for byte what the receiver got, and what it answered.
  const payload = await detail.locator('pre.payload').innerText();
  expect(JSON.parse(payload)).toEqual(JSON.parse(receiver.received[0]!.body));
  expect(await detail.locator('pre.answer').first().innerText()).toContain('"received": true');
  await detail.getByRole('button', { name: 'Redeliver' }).click();
  const again = await eventually(
    async () => (receiver.received.length === 2 ? receiver.received[1] : undefined),
    'the redelivery',
  );
  expect(again).toMatchObject({ type: 'evaluation.succeeded', verified: true });
  expect(receiver.received[1]!.headers['webhook-id']).toBe(
    receiver.received[0]!.headers['webhook-id'],
  );
  // Its second series answered (so the same read shows it delivered again), in the pane too.
  await row.locator('.badge.s2xx').nth(1).waitFor();
  await detail.locator('pre.answer').nth(1).waitFor();
  await row.locator('td[data-status]', { hasText: 'delivered' }).waitFor();

  const shown = await page.locator('section.view').innerText();
  expect(shown).toContain(receiver.url);
  expect(shown).not.toContain(endpoint.secret);
  // The endpoint nothing listens on: its first attempt failed, its next is due on the clock.
  await page
    .locator('tr', { hasText: 'ECONNREFUSED' })
    .getByText('2026-01-01 00:00:05.000')
    .waitFor();
  await screenshot(page, 'webhooks', { replace: [[receiver.url, 'http://127.0.0.1:4000/hooks']] });
  expectClean();
  await page.close();
});

test("an endpoint's chaos and its receiver's verdict, and each delivery's chaos, are shown", async () => {
  const { control } = ui.emulator;
  // A receiver that never verifies: it takes the forged delivery too.
  const naive = await startReceiver(() => 204);
  try {
    const { account } = await control.createAccount({ name: 'chaos' });
    const endpoint = await control.seedWebhookEndpoint(account.id, {
      url: naive.url,
      chaos: { bad_signature: true, duplicate: 0.5 },
    });
    await control.triggerEvent(account.id, EVENT);
    const forged = await eventually(async () => {
      const { data } = await control.listWebhookDeliveries({ account: account.id });
      const d = data.find((x) => x.chaos === 'bad_signature');
      return d?.status === 'delivered' ? d : undefined;
    }, 'the forged delivery answered');

    const { page, expectClean } = await openInspector(
      ui.browser,
      ui.emulator.baseUrl,
      `view=webhooks&account=${account.id}`,
    );
    // The first table is the endpoints' (the deliveries' rows name the endpoint too).
    const endpointRow = page.locator('section.view table').first().locator('tr', {
      hasText: endpoint.id,
    });
    await endpointRow.locator('.badge.chaos', { hasText: 'bad_signature' }).waitFor();
    await endpointRow.locator('.badge.chaos', { hasText: 'duplicate 50%' }).waitFor();
    // The receiver report judged it: it accepted a forgery.
    await endpointRow.locator('.badge.verdict-fail').waitFor();
    expect(await endpointRow.innerText()).toContain('bad_signature');
    const row = page.locator(`tr[data-delivery="${forged.id}"]`);
    await row.locator('td[data-chaos="bad_signature"] .badge.chaos').waitFor();
    await row.click();
    const detail = page.locator('aside.detail');
    await detail.getByText('a careful receiver answers 4xx').waitFor();
    expect(await detail.innerText()).toContain(forged.webhook_id);
    await screenshot(page, 'webhooks-chaos', {
      docs: false,
      replace: [[naive.url, 'http://127.0.0.1:4000/hooks']],
    });
    expectClean();
    await page.close();
  } finally {
    await naive.close();
  }
});
