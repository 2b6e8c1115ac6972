/**
 * An endpoint whose deliveries all fail for 5 virtual days is disabled (docs/runtime.md
 * "Deliveries"): its status shows it, a `webhook_endpoint.disabled` event is recorded and
 * delivered to the endpoints that subscribe, it gets nothing more, and one control call enables it.
 */
import { afterEach, expect, test } from 'vitest';
import { testEmulator } from '../../../test/helpers.js';
import { eventually } from '../../../test/wait.js';
import { type Receiver, startReceiver } from '../../../test/webhook-receiver.js';

const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };
const DAY = 86_400_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(answer: (n: number) => number): Promise<Receiver> {
  const r = await startReceiver(answer);
  cleanups.push(() => r.close());
  return r;
}

test('five virtual days of failures disable the endpoint; enabling it is one call', async () => {
  const emu = testEmulator({ webhookRetrySchedule: [0, DAY, DAY, DAY, DAY, DAY] });
  cleanups.push(() => emu.emulator.close());
  const { account, key } = await emu.control('POST', '/accounts', {});
  const call = (method: string, path: string, body?: unknown) =>
    emu.api(method, path, { secret: key.secret, body });
  const down = await receiver(() => 500);
  const watcher = await receiver(() => 204);
  const failing = (
    await call('POST', '/v1/webhook_endpoints', { url: down.url, events: ['evaluation.queued'] })
  ).json;
  const watching = (
    await call('POST', '/v1/webhook_endpoints', {
      url: watcher.url,
      events: ['webhook_endpoint.*'],
    })
  ).json;
  watcher.secret = watching.secret;
  const deliveriesTo = async (endpoint: string) =>
    (await emu.control('GET', `/webhook_deliveries?endpoint=${endpoint}`)).data as {
      status: string;
      attempts: { at: string; in_flight: boolean }[];
    }[];
  const attemptsTo = async (endpoint: string) =>
    (await deliveriesTo(endpoint)).flatMap((d) => d.attempts).filter((a) => !a.in_flight).length;

  expect((await call('POST', '/v1/evaluations', { spec: SPEC })).status).toBe(201);
  await eventually(async () => ((await attemptsTo(failing.id)) === 1 ? true : undefined), '1st');
  await emu.control('POST', `/accounts/${account.id}/clock/advance`, { seconds: 4 * 86_400 });
  await eventually(async () => ((await attemptsTo(failing.id)) === 5 ? true : undefined), '5th');
  let shown = (await call('GET', `/v1/webhook_endpoints/${failing.id}`)).json;
  expect(shown).toMatchObject({ status: 'enabled', disabled_at: null });

  await emu.control('POST', `/accounts/${account.id}/clock/advance`, { seconds: 86_400 });
  await eventually(async () => (watcher.received.length === 1 ? true : undefined), 'the event');
  shown = (await call('GET', `/v1/webhook_endpoints/${failing.id}`)).json;
  expect(shown).toMatchObject({ status: 'disabled', disabled_at: '2026-01-06T00:00:00.000Z' });
  const [delivery] = await deliveriesTo(failing.id);
  expect(delivery!.status).toBe('failed');
  const events = (await call('GET', '/v1/events?type=webhook_endpoint.disabled')).json.data;
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    type: 'webhook_endpoint.disabled',
    created_at: '2026-01-06T00:00:00.000Z',
    data: { object: { id: failing.id, status: 'disabled' }, previous_status: 'enabled' },
  });
  expect(watcher.received[0]).toMatchObject({ type: 'webhook_endpoint.disabled', verified: true });
  expect(JSON.parse(watcher.received[0]!.body)).toEqual(events[0]);

  // Disabled: a new event goes nowhere.
  await call('POST', '/v1/evaluations', { spec: SPEC });
  await new Promise((r) => setTimeout(r, 100));
  expect(await deliveriesTo(failing.id)).toHaveLength(1);

  const enabled = await emu.control('POST', `/webhook_endpoints/${failing.id}/enable`);
  expect(enabled).toMatchObject({ id: failing.id, status: 'enabled', disabled_at: null });
  await call('POST', '/v1/evaluations', { spec: SPEC });
  await eventually(
    async () => ((await deliveriesTo(failing.id)).length === 2 ? true : undefined),
    'again',
  );
  const unknown = await emu.emulator.app.request('/_control/webhook_endpoints/whe_nope/enable', {
    method: 'POST',
  });
  expect(unknown.status).toBe(404);
});
