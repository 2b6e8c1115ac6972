/**
 * A clock advance stalls only its own account (issue 27 item 1, issue 36): settling is cut into
 * windows, runs that end at one instant are split across them, their ends and archives computed in
 * worker threads. Another account's call made while the advance is under way is answered before
 * the advance is.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestAccount } from '../../src/tools/harness/index.js';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';

let emu: RunningEmulator;
let busy: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  emu = await startEmulator({ settleSlice: 50 });
  busy = await emu.control.newAccount();
  other = await emu.control.newAccount();
  // Ten runs of 2,000 episodes that all end at the same instant.
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${busy.apiUrl}/evaluations`, {
      method: 'POST',
      headers: { ...busy.headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        spec: { path: 'specs/long.yaml', name: 'long' },
        options: { episodes: 2000 },
      }),
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => emu.stop());

test("another account's call is answered while a long advance settles", async () => {
  const order: string[] = [];
  const advance = busy.clock.advance(10_800).then((a) => {
    order.push('advance');
    return a;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const me = fetch(`${other.apiUrl}/keys/me`, { headers: other.headers }).then((res) => {
    order.push('keys/me');
    return res.status;
  });
  expect(await me).toBe(200);
  const advanced = await advance;
  expect(order).toEqual(['keys/me', 'advance']);
  expect(advanced.transitions.filter((t) => t.to === 'succeeded')).toHaveLength(10);

  // Once the advance has answered, its account reads every archive as built.
  const list = await fetch(`${busy.apiUrl}/evaluations?limit=10`, { headers: busy.headers });
  const { data } = (await list.json()) as { data: { download: { sha256: string } | null }[] };
  expect(data.every((run) => run.download?.sha256.length === 64)).toBe(true);
});
