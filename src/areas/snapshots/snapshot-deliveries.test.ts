/**
 * Webhook deliveries across a snapshot restore: the records come back with their ids and
 * statuses, and the deliveries made after the restore number on as they did after the save.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { testEmulator } from '../../../test/helpers.js';
import { eventually } from '../../../test/wait.js';
import { SPEC } from './snapshot-world.test-support.js';

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
}

test('deliveries come back with their ids, and new ones number on as after the save', async () => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const emu = testEmulator({ webhookRetrySchedule: [0, 20] });
  // As a listening server does: kept deliveries are resumed once the origin is known.
  emu.emulator.deps.webhooks.origin = 'http://localhost';
  const { account, key } = await emu.control('POST', '/accounts', {});
  const call = (method: string, path: string, body?: unknown) =>
    emu.api(method, path, { secret: key.secret, body });
  await call('POST', '/v1/webhook_endpoints', { url });
  const list = async (): Promise<Delivery[]> =>
    (await emu.control('GET', `/webhook_deliveries?account=${account.id}`)).data;
  /** One evaluation run to success: three events, each delivered. */
  const runOne = async (count: number) => {
    await call('POST', '/v1/evaluations', { spec: SPEC });
    await emu.control('POST', `/accounts/${account.id}/clock/advance`, { seconds: 10 });
    return eventually(async () => {
      const got = await list();
      return got.length >= count && got.every((d) => d.status === 'delivered') ? got : undefined;
    }, `${count} delivered`);
  };
  const saved = await runOne(3);
  await emu.control('POST', '/snapshots', { name: 'hooks' });
  const next = (await runOne(6)).slice(3);
  await emu.control('POST', '/snapshots/hooks/restore');
  expect(await list()).toEqual(saved);
  const again = (await runOne(6)).slice(3);
  const shape = (ds: Delivery[]) => ds.map((d) => [d.id, d.event_id, d.event_type, d.status]);
  expect(shape(again)).toEqual(shape(next));
  expect(again.map((d) => d.id)).toEqual(['whdl_00000004', 'whdl_00000005', 'whdl_00000006']);
  emu.emulator.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test("an endpoint's receiver chaos and each delivery's come back with a restore", async () => {
  const emu = testEmulator();
  const { account } = await emu.control('POST', '/accounts', {});
  const endpoint = await emu.control('POST', `/accounts/${account.id}/webhook_endpoints`, {
    url: 'http://127.0.0.1:2/hooks',
    chaos: { bad_signature: true, duplicate: 0.5 },
  });
  const event = {
    type: 'evaluation.queued',
    data: { object: { id: 'eval_1', object: 'evaluation' } },
  };
  await emu.control('POST', `/accounts/${account.id}/events`, event);
  const shown = async () => ({
    endpoints: (await emu.control('GET', `/webhook_endpoints?account=${account.id}`)).data,
    deliveries: (await emu.control('GET', `/webhook_deliveries?account=${account.id}`)).data.map(
      (d: { id: string; chaos: string | null; webhook_id: string }) => [
        d.id,
        d.chaos,
        d.webhook_id,
      ],
    ),
  });
  const saved = await shown();
  expect(saved.deliveries.map((d: unknown[]) => d[1])).toContain('bad_signature');
  await emu.control('POST', '/snapshots', { name: 'chaos', account: account.id });
  await emu.control('PUT', `/accounts/${account.id}/webhook_chaos`, { chaos: {} });
  expect((await shown()).endpoints[0].chaos).toBeNull();
  await emu.control('POST', '/snapshots/chaos/restore');
  expect(await shown()).toEqual(saved);
  expect(saved.endpoints[0]).toMatchObject({ id: endpoint.id, chaos: { bad_signature: 1 } });
  emu.emulator.close();
});
