/**
 * A run's log (API document section 4.4) is derived from its attempt, not stored
 * (domain/run-log.ts): these are the lines the engine wrote when it stored them, in order.
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT } from '../helpers.js';
import { runtime, SPEC } from './support.js';

const UNTIL_CANCEL = [
  '2026-01-01T00:00:00.000Z attempt 1 queued: 4 episodes, spec pick_place',
  '2026-01-01T00:00:00.500Z phase materializing started',
  '2026-01-01T00:00:01.000Z phase planning started',
  '2026-01-01T00:00:01.500Z phase fetching started',
  '2026-01-01T00:00:02.000Z phase running started',
  '2026-01-01T00:00:02.250Z episode 1/4 succeeded return=0.9158',
  '2026-01-01T00:00:02.500Z episode 2/4 succeeded return=0.6484',
  '2026-01-01T00:00:02.600Z cancel requested',
];

test('a run canceled half-way logs what it ran, the cancel, and its end once the clock passes it', async () => {
  const rt = runtime();
  const run = await rt.create({ spec: SPEC, options: { episodes: 4 } });
  await rt.advance(2.6);
  expect((await rt.call('POST', `/v1/evaluations/${run.id}/cancel`)).status).toBe(202);
  expect(await rt.logs(run.id)).toEqual(UNTIL_CANCEL);
  await rt.advance(0.999);
  expect(await rt.logs(run.id)).toEqual(UNTIL_CANCEL);
  await rt.advance(0.001);
  expect(await rt.logs(run.id)).toEqual([...UNTIL_CANCEL, '2026-01-01T00:00:03.600Z run canceled']);
});

test('a resumed run logs its new attempt only, line by line as the clock passes each event', async () => {
  const rt = runtime();
  const run = await rt.create({ spec: SPEC, options: { episodes: 4 } });
  await rt.advance(2.6);
  await rt.call('POST', `/v1/evaluations/${run.id}/cancel`);
  await rt.advance(10);
  expect((await rt.call('POST', `/v1/evaluations/${run.id}/resume`)).status).toBe(202);
  expect(await rt.logs(run.id)).toEqual([
    '2026-01-01T00:00:12.600Z attempt 2 queued: 4 episodes, spec pick_place',
  ]);
  await rt.advance(2.25);
  expect((await rt.logs(run.id)).at(-1)).toBe(
    '2026-01-01T00:00:14.850Z episode 1/4 succeeded return=0.9158',
  );
  await rt.advance(10);
  expect((await rt.logs(run.id)).slice(-5)).toEqual([
    '2026-01-01T00:00:15.350Z episode 3/4 succeeded return=0.8357',
    '2026-01-01T00:00:15.600Z episode 4/4 succeeded return=0.8701',
    '2026-01-01T00:00:15.600Z phase verifying started',
    '2026-01-01T00:00:15.900Z phase packaging started',
    '2026-01-01T00:00:16.100Z run succeeded: success_rate=1 (4/4)',
  ]);
  const tail = await rt.call('GET', `/v1/sim_runs/${run.id}/logs?limit=2`);
  expect(tail.json.lines).toEqual([
    '2026-01-01T00:00:15.900Z phase packaging started',
    '2026-01-01T00:00:16.100Z run succeeded: success_rate=1 (4/4)',
  ]);
});

test('a run seeded with a log keeps it, and its cancel adds its two lines', async () => {
  const rt = runtime();
  const seeded = await rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
    spec: SPEC,
    status: 'processing',
    logs: ['seeded line one', 'seeded line two'],
  });
  await rt.advance(1);
  expect((await rt.call('POST', `/v1/evaluations/${seeded.id}/cancel`)).status).toBe(202);
  await rt.advance(5);
  expect(await rt.logs(seeded.id)).toEqual([
    'seeded line one',
    'seeded line two',
    '2026-01-01T00:00:01.000Z cancel requested',
    '2026-01-01T00:00:02.000Z run canceled',
  ]);
});

test('a seeded run keeps its rows until a resume starts its first attempt, which drops them', async () => {
  const rt = runtime();
  const count = rt.emu.emulator.deps.store.db.prepare<[string, string], { n: number }>(
    `SELECT (SELECT count(*) FROM run_logs WHERE run_id = ?)
          + (SELECT count(*) FROM run_files WHERE run_id = ?) AS n`,
  );
  const rows = { get: (id: string) => count.get(id, id) };
  const given = await rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
    spec: SPEC,
    status: 'failed',
    logs: ['seeded line'],
  });
  // Seeded in a fixed state without rows; a cancel writes its lines as rows.
  const canceled = await rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
    spec: SPEC,
    status: 'processing',
  });
  await rt.call('POST', `/v1/evaluations/${canceled.id}/cancel`);
  await rt.advance(5);
  expect([rows.get(given.id)?.n, rows.get(canceled.id)?.n]).toEqual([1, 2]);
  for (const id of [given.id, canceled.id]) {
    expect((await rt.call('POST', `/v1/evaluations/${id}/resume`)).status).toBe(202);
    expect(rows.get(id)?.n).toBe(0);
    expect(await rt.logs(id)).toEqual([expect.stringContaining('attempt 2 queued')]);
  }
});
