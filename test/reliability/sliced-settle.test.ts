/**
 * Issue 9 item 4: a clock advance is applied in windows of at most `--settle-slice` events,
 * yielding between them. Results equal one settle (same transitions, same events with the same
 * ids and order). That other accounts are served while a long advance is in progress is
 * test/isolation/stall.test.ts's.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';

const SPEC = { path: 'specs/pick.yaml', name: 'pick' };
type Emu = ReturnType<typeof testEmulator>;

async function allEvents(emu: Emu, secret?: string): Promise<unknown[]> {
  const events: any[] = [];
  let after: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const query = `/v1/events?limit=100${after ? `&after=${after}` : ''}`;
    const res = await emu.api('GET', query, secret ? { secret } : {});
    expect(res.status).toBe(200);
    events.push(...res.json.data);
    if (!res.json.has_more) break;
    after = res.json.data.at(-1).id;
  }
  return events;
}

const create = (emu: Emu, options: unknown, secret?: string) =>
  emu.api('POST', '/v1/evaluations', {
    body: { spec: SPEC, options },
    ...(secret ? { secret } : {}),
  });

/**
 * Two runs whose ends share an instant although the later-created one is due first: it queues
 * 1 s from t=5 (9 episodes), the first 10 s from t=0 (5 episodes). Ordering by due instant
 * would put the second run's end first in one settle, and the first's in windows.
 */
async function tieWorld(emu: Emu) {
  const options = (queue: number, episodes: number) => ({
    episodes,
    emulator: { durations_s: { queue, episode: 1 } },
  });
  expect((await create(emu, options(10, 5))).status).toBe(201);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 5 });
  expect((await create(emu, options(1, 9))).status).toBe(201);
  expect((await create(emu, options(1, 9))).status).toBe(201);
}

/** Runs of different lengths and outcomes, and a cancel. */
async function mixedWorld(emu: Emu) {
  for (let i = 0; i < 6; i++) {
    const res = await create(emu, {
      episodes: 3 + i * 7,
      emulator: {
        outcomes: i % 3 === 0 ? [{ fail: 'policy_failed' }] : undefined,
        durations_s: { episode: 5 },
      },
    });
    expect(res.status).toBe(201);
    await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 3 });
  }
  const last = (await create(emu, { episodes: 50, emulator: { durations_s: { episode: 2 } } }))
    .json;
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 30 });
  expect((await emu.api('POST', `/v1/evaluations/${last.id}/cancel`)).status).toBeLessThan(300);
}

describe('windowed settling equals one settle', () => {
  for (const [name, world] of [
    ['ties', tieWorld],
    ['mixed', mixedWorld],
  ] as const) {
    test(name, async () => {
      const results = [];
      for (const settleSlice of [1, 3, 1_000_000]) {
        const emu = testEmulator({ settleSlice });
        await world(emu);
        const advanced = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, {
          seconds: 3600,
        });
        results.push({ transitions: advanced.transitions, events: await allEvents(emu) });
      }
      expect(results[0]!.transitions.length).toBeGreaterThan(5);
      expect(results[0]).toEqual(results[2]);
      expect(results[1]).toEqual(results[2]);
    });
  }
});
