// The smallest SDK test against svc-emulator: one emulator per file, one account per test.
import { type RunningEmulator, startEmulator } from 'svc-emulator/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator(); // a free port, manual clocks, seed '0'
});
afterAll(() => emulator?.stop()); // undefined if the start failed: its own error is the one shown

test('an evaluation succeeds after 5 virtual seconds', async () => {
  const account = await emulator.control.newAccount(); // its own clock, ids and balance
  const headers = { ...account.headers, 'content-type': 'application/json' };
  const created = await fetch(`${account.apiUrl}/evaluations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ spec: { path: 'specs/pick.yaml', name: 'pick' } }),
  });
  const run = (await created.json()) as { id: string; status: string };
  expect(run.status).toBe('queued');

  await account.clock.advance(5);
  const read = await fetch(`${account.apiUrl}/evaluations/${run.id}`, { headers });
  expect(await read.json()).toMatchObject({ id: run.id, status: 'succeeded' });
});
