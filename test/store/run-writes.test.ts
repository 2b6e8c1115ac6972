/**
 * How the runs repository writes a run's state (store/runs.ts `saveState`): at its own row,
 * never at another run's, as JSON text, with its `status` column (what listings by status and
 * the slots read) kept equal to the state's; the attempt's schedule written as tuples and read
 * back as it was.
 */
import { expect, test } from 'vitest';
import type { RunRecord } from '../../src/engine/records.js';
import { buildSchedule } from '../../src/engine/timeline/schedule.js';
import { storeWithAccounts } from './support.js';

const A = 'acct_a';

function record(id: string, status: string): RunRecord {
  return {
    id,
    accountId: A,
    kind: 'evaluation',
    createdAt: 't',
    request: {} as RunRecord['request'],
    state: { status } as RunRecord['state'],
    nextAt: null,
  };
}

/** The rows, each state as its JSON text. */
function rows(store: ReturnType<typeof storeWithAccounts>['store']) {
  return store.db.prepare('SELECT seq, id, status, state FROM runs ORDER BY seq').all();
}

test('a state saved changes only its own row, its status column with it or without a change', () => {
  const { store } = storeWithAccounts([A]);
  const first = record('eval_1', 'failed');
  store.runs.insert(first);
  store.runs.insert(record('eval_2', 'failed'));
  const read = store.runs.get(A, 'eval_2')!;
  read.state = { ...read.state, status: 'queued' };
  store.runs.saveState(read);
  first.state = { ...first.state, progress: 0.5 } as RunRecord['state'];
  store.runs.saveState(first);
  expect(rows(store)).toEqual([
    { seq: 1, id: 'eval_1', status: 'failed', state: '{"status":"failed","progress":0.5}' },
    { seq: 2, id: 'eval_2', status: 'queued', state: '{"status":"queued"}' },
  ]);
  expect(
    store.runs.list(A, 'evaluation', { status: 'queued', limit: 10 }).data.map((r) => r.id),
  ).toEqual(['eval_2']);
  expect(store.runs.active(A).map((r) => r.id)).toEqual(['eval_2']);
});

test('a run inserted by a transaction that rolled back never overwrites the run that takes its place', () => {
  const { store } = storeWithAccounts([A]);
  const ghost = record('eval_ghost', 'queued');
  expect(() =>
    store.tx(() => {
      store.runs.insert(ghost);
      throw new Error('rolled back');
    }),
  ).toThrow('rolled back');
  // The rollback undid the counter too: the next run is written where the ghost was.
  store.runs.insert(record('eval_real', 'queued'));
  ghost.state = { status: 'failed' } as RunRecord['state'];
  store.runs.saveState(ghost);
  expect(rows(store)).toEqual([
    { seq: 1, id: 'eval_real', status: 'queued', state: '{"status":"queued"}' },
  ]);
});

test("the attempt's schedule is stored as tuples and reads back equal, key order included", () => {
  const { store } = storeWithAccounts([A]);
  const phases = [
    { name: 'provisioning', ms: 1000 },
    { name: 'running', ms: 5000, steps: 20 },
    { name: 'packaging', ms: 0 },
  ];
  const schedules = [
    buildSchedule(1_767_225_600_000, 500, phases),
    buildSchedule(1_767_225_600_000, 500, phases, { phase: 'running', afterSteps: 7 }),
    buildSchedule(1_767_225_600_000, 0, phases, { phase: 'packaging' }),
    // Not contiguous: kept as JSON, as it is.
    {
      ...buildSchedule(0, 500, phases),
      segments: [{ name: 'x', startMs: 9, endMs: 10, steps: 0 }],
    },
    // Nothing tuples would not read back to exactly: each kept as JSON.
    { ...buildSchedule(0, 500, phases), failed: true },
    { ...buildSchedule(0, 500, phases), note: 'extra' },
    { ...buildSchedule(0.5, 500, phases) },
    { ...buildSchedule(0, 500, phases), totalSteps: 21 },
    Object.assign({ stepsAtEnd: 0 }, buildSchedule(0, 500, phases)),
    {
      ...buildSchedule(0, 500, phases),
      segments: buildSchedule(0, 500, phases).segments.map(({ name, ...rest }) => ({
        ...rest,
        name,
      })),
    },
  ];
  schedules.forEach((schedule, i) => {
    const r = record(`eval_${i}`, 'processing');
    r.state = { status: 'processing', run: { attempt: 1, schedule, appliedUntil: 0 } } as never;
    store.runs.insert(r);
    const read = store.runs.get(A, r.id)!;
    expect(JSON.stringify(read.state)).toBe(JSON.stringify(r.state));
  });
  const texts = rows(store).map((row) => (row as { state: string }).state);
  expect(JSON.parse(texts[0]!).run.schedule).toEqual([
    1_767_225_600_000,
    500,
    [
      ['provisioning', 1000, 0],
      ['running', 5000, 20],
      ['packaging', 0, 0],
    ],
    6500,
    null,
    20,
  ]);
  expect(JSON.parse(texts[1]!).run.schedule[4]).toBe('running');
  expect(JSON.parse(texts[3]!).run.schedule.segments).toHaveLength(1);
  for (const text of texts.slice(3))
    expect(Array.isArray(JSON.parse(text).run.schedule)).toBe(false);
});
