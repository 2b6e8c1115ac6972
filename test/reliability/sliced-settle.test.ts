/**
 * Issue 9 item 4, issue 36: a clock advance is applied in windows of at most `--settle-slice` work
 * (a transition 1, a run's end 1 plus its steps) and about 8 ms of the event loop, yielding between
 * them, the ends and archives of long runs computed in worker threads. Results equal one settle on
 * the event loop alone (same transitions, same events with the same ids and order), and other
 * accounts are served while a long advance is in progress.
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
      // Windows of 1 and 3, windows sized by the time they take, and one window.
      const windows = [
        { settleSlice: 1 },
        { settleSlice: 3 },
        {},
        { settleSlice: 1_000_000, settleWindowMs: Number.POSITIVE_INFINITY },
      ];
      for (const options of windows) {
        const emu = testEmulator(options);
        await world(emu);
        const advanced = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, {
          seconds: 3600,
        });
        results.push({ transitions: advanced.transitions, events: await allEvents(emu) });
      }
      expect(results[0]!.transitions.length).toBeGreaterThan(5);
      for (const result of results.slice(0, 3)) expect(result).toEqual(results[3]);
    });
  }
});

test('other accounts are served while a long advance is applied, and it equals one settle', async () => {
  const RUNS = 6;
  const big = async (emu: Emu) => {
    const acct = await emu.control('POST', '/accounts', {
      id: 'acct_big',
      token_balance: 10_000_000,
      limits: { concurrent_runs: 1000 },
    });
    // Each run long enough that its end and archive go to a worker (DEFAULT_MIN_STEPS, 100
    // steps), so the advance waits on the worker while the other account is served.
    for (let i = 0; i < RUNS; i++) {
      const res = await create(emu, { episodes: 150 }, acct.key.secret);
      expect(res.status).toBe(201);
    }
    return acct.key.secret as string;
  };
  const sliced = testEmulator({ settleWorkers: { threads: 1 } });
  const secret = await big(sliced);
  const order: string[] = [];
  const advance = sliced
    .control('POST', '/accounts/acct_big/clock/advance', { seconds: 86_400 })
    .then((body) => {
      order.push('advance');
      return body;
    });
  const other = sliced.api('GET', '/v1/keys/me').then((res) => {
    order.push('other account');
    return res;
  });
  const [advanced, otherRes] = await Promise.all([advance, other]);
  expect(otherRes.status).toBe(200);
  expect(order).toEqual(['other account', 'advance']);
  expect(sliced.emulator.deps.engine.settlePool.stats()).toMatchObject({
    worker: 2 * RUNS,
    failed: 0,
  });

  const oneShot = testEmulator({
    settleSlice: 1_000_000,
    settleWindowMs: Number.POSITIVE_INFINITY,
    settleWorkers: { threads: 0 },
  });
  await big(oneShot);
  const expected = await oneShot.control('POST', '/accounts/acct_big/clock/advance', {
    seconds: 86_400,
  });
  expect(advanced.transitions).toEqual(expected.transitions);
  expect(await allEvents(sliced, secret)).toEqual(await allEvents(oneShot, secret));
});
