/**
 * Outcome plans, failure codes, tokens, cancel and listing (DESIGN.md section 4 "Outcomes",
 * "Failure codes", "Tokens"; API document sections 2.3, 3.1 and 4.1; DESIGN.md section 3 for the
 * inferred cancel, list and `not_resumable`).
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../helpers.js';
import {
  at,
  DEFAULT_END,
  DEFAULT_ESTIMATE,
  freshAccount,
  PHASES,
  type Runtime,
  runtime,
  SPEC,
} from './support.js';

type Transition = { at: string; resource: string; from: string; to: string; phase: string };

/** When each phase of the default timeline runs, in seconds after creation: [start, end). */
const WINDOWS: Record<(typeof PHASES)[number], [number, number]> = {
  materializing: [0.5, 1],
  planning: [1, 1.5],
  fetching: [1.5, 2],
  running: [2, 4.5],
  verifying: [4.5, 4.8],
  packaging: [4.8, 5],
};

const seconds = (timestamp: string) => (Date.parse(timestamp) - Date.parse(at(0))) / 1000;

/** A run following `outcomes`, created at the account's now. */
const planned = (rt: Runtime, outcomes: unknown[], options: Record<string, unknown> = {}) =>
  rt.create({ spec: SPEC, options: { ...options, emulator: { outcomes } } });

/** Advances well past the end of a default attempt and answers the run's terminal transition. */
async function settleRun(rt: Runtime, id: string): Promise<Transition> {
  const { transitions } = await rt.advance(60);
  const last = transitions.filter((t: Transition) => t.resource === id).at(-1);
  expect(last).toEqual({
    at: expect.any(String),
    resource: id,
    from: expect.any(String),
    to: expect.stringMatching(/^(succeeded|failed|canceled)$/),
    phase: expect.any(String),
  });
  return last;
}

test.each(PHASES)('interrupted at %s fails in that phase and is resumable', async (phase) => {
  const rt = runtime();
  const { id } = await planned(rt, [{ fail: 'interrupted', at: phase }]);
  const end = await settleRun(rt, id);
  expect(end).toMatchObject({ from: 'processing', to: 'failed', phase });
  const [start, stop] = WINDOWS[phase];
  expect(seconds(end.at)).toBeGreaterThanOrEqual(start);
  expect(seconds(end.at)).toBeLessThan(stop);

  const run = await rt.get(id);
  expect(run).toMatchObject({
    status: 'failed',
    phase,
    download: null,
    completed_at: end.at,
    error: { code: 'interrupted', message: expect.any(String), resumable: true },
  });
  expect(run.progress).toBeLessThan(1);
  expect(run.tokens.refunded).toBeGreaterThan(0);
});

test('resume answers 202 queued and the next plan entry runs: [interrupted, succeed] ends succeeded', async () => {
  const rt = runtime();
  const created = await planned(rt, [{ fail: 'interrupted' }, { succeed: {} }]);
  await settleRun(rt, created.id);
  const failed = await rt.get(created.id);
  expect(failed.status).toBe('failed');

  const resumed = await rt.call('POST', `/v1/evaluations/${created.id}/resume`);
  expect(resumed.status).toBe(202);
  expect(resumed.json).toEqual({
    ...failed,
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    episodes: { done: 0, total: 10 },
    error: null,
    result: null,
    download: null,
    tokens: { charged: 2 * DEFAULT_ESTIMATE, refunded: failed.tokens.refunded },
    started_at: null,
    completed_at: null,
  });

  // The new attempt runs the whole default timeline from the resume instant.
  const resumedAt = 60;
  await rt.advance(DEFAULT_END - 0.001);
  expect((await rt.get(created.id)).status).toBe('processing');
  const { transitions } = await rt.advance(0.001);
  expect(transitions).toEqual([
    {
      at: at(resumedAt + DEFAULT_END),
      resource: created.id,
      from: 'processing',
      to: 'succeeded',
      phase: 'packaging',
    },
  ]);
  expect(await rt.get(created.id)).toMatchObject({
    status: 'succeeded',
    error: null,
    result: { verified: true },
    started_at: at(resumedAt + 0.5),
    completed_at: at(resumedAt + DEFAULT_END),
    tokens: { charged: 2 * DEFAULT_ESTIMATE, refunded: failed.tokens.refunded },
  });
  expectError(await rt.call('POST', `/v1/evaluations/${created.id}/resume`), 409, 'not_resumable');
});

test('each resume takes the next plan entry; once the plan runs out the run succeeds', async () => {
  const rt = runtime();
  const { id } = await planned(rt, [
    { fail: 'interrupted', at: 'planning' },
    { fail: 'policy_failed', after_episodes: 1 },
    { fail: 'verification_failed' },
  ]);
  const seen: [string, string | null][] = [];
  for (let attempt = 1; attempt <= 4; attempt++) {
    if (attempt > 1) {
      expect((await rt.call('POST', `/v1/evaluations/${id}/resume`)).status).toBe(202);
    }
    await settleRun(rt, id);
    const run = await rt.get(id);
    seen.push([run.status, run.error?.code ?? null]);
  }
  expect(seen).toEqual([
    ['failed', 'interrupted'],
    ['failed', 'policy_failed'],
    ['failed', 'verification_failed'],
    ['succeeded', null],
  ]);
  expect((await rt.get(id)).tokens.charged).toBe(4 * DEFAULT_ESTIMATE);
});

test('a plan given through the control API puts a run on the clock that follows it', async () => {
  const rt = runtime();
  const seeded = await rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
    spec: SPEC,
    outcomes: [{ fail: 'interrupted', at: 'fetching' }, { succeed: { success_rate: 1 } }],
  });
  expect(seeded).toMatchObject({ status: 'queued', progress: 0, episodes: { done: 0, total: 10 } });
  const end = await settleRun(rt, seeded.id);
  expect(end).toMatchObject({ to: 'failed', phase: 'fetching' });
  expect((await rt.call('POST', `/v1/evaluations/${seeded.id}/resume`)).status).toBe(202);
  await settleRun(rt, seeded.id);
  expect(await rt.get(seeded.id)).toMatchObject({
    status: 'succeeded',
    result: { metrics: [expect.objectContaining({ id: 'success_rate', value: 1, n: 10 })] },
  });
});

test('a failed run refunds the part not consumed and the balance goes back up by the refund', async () => {
  const rt = await freshAccount(runtime(), { token_balance: 1000 });
  const { id } = await planned(rt, [{ fail: 'interrupted', at: 'running', after_episodes: 5 }]);
  expect(await rt.balance()).toBe(1000 - DEFAULT_ESTIMATE);
  await settleRun(rt, id);
  const run = await rt.get(id);
  expect(run.tokens.charged).toBe(DEFAULT_ESTIMATE);
  expect(run.tokens.refunded).toBeGreaterThan(0);
  expect(run.tokens.refunded).toBeLessThan(DEFAULT_ESTIMATE);
  // The part not consumed: the share of the run still ahead when it failed.
  expect(Math.abs(run.tokens.refunded - DEFAULT_ESTIMATE * (1 - run.progress))).toBeLessThanOrEqual(
    1,
  );
  expect(await rt.balance()).toBe(1000 - DEFAULT_ESTIMATE + run.tokens.refunded);
});

test('a run canceled while queued refunds its whole charge', async () => {
  const rt = await freshAccount(runtime(), { token_balance: 1000 });
  const { id } = await rt.create();
  await rt.advance(0.2);
  expect((await rt.call('POST', `/v1/evaluations/${id}/cancel`)).status).toBe(202);
  expect(await rt.balance()).toBe(1000 - DEFAULT_ESTIMATE);
  await rt.advance(1);
  expect((await rt.get(id)).tokens).toEqual({
    charged: DEFAULT_ESTIMATE,
    refunded: DEFAULT_ESTIMATE,
  });
  expect(await rt.balance()).toBe(1000);
});

test('a run canceled while processing refunds the part not consumed', async () => {
  const rt = await freshAccount(runtime(), { token_balance: 1000 });
  const { id } = await rt.create();
  await rt.advance(2.5);
  await rt.call('POST', `/v1/evaluations/${id}/cancel`);
  await rt.advance(1);
  const run = await rt.get(id);
  expect(run.status).toBe('canceled');
  expect(run.tokens.refunded).toBeGreaterThan(0);
  expect(run.tokens.refunded).toBeLessThan(DEFAULT_ESTIMATE);
  expect(Math.abs(run.tokens.refunded - DEFAULT_ESTIMATE * (1 - run.progress))).toBeLessThanOrEqual(
    1,
  );
  expect(await rt.balance()).toBe(1000 - DEFAULT_ESTIMATE + run.tokens.refunded);
});

test('create answers 402 insufficient_tokens when the balance cannot cover the estimate, leaving nothing behind', async () => {
  const rt = await freshAccount(runtime(), { token_balance: 0 });
  const res = await rt.call('POST', '/v1/evaluations', { spec: SPEC });
  expectError(res, 402, 'insufficient_tokens');
  expect(await rt.balance()).toBe(0);
  expect((await rt.call('GET', '/v1/evaluations')).json).toEqual({
    object: 'list',
    data: [],
    has_more: false,
    next_cursor: null,
  });
});

test('resume answers 402 insufficient_tokens when the balance cannot cover the next attempt; the run stays failed', async () => {
  const rt = await freshAccount(runtime(), { token_balance: DEFAULT_ESTIMATE });
  const { id } = await planned(rt, [{ fail: 'interrupted' }, { succeed: {} }]);
  expect(await rt.balance()).toBe(0);
  await settleRun(rt, id);
  const failed = await rt.get(id);
  const refund = failed.tokens.refunded;
  expect(refund).toBeGreaterThan(0);
  expect(await rt.balance()).toBe(refund);

  const res = await rt.call('POST', `/v1/evaluations/${id}/resume`);
  expectError(res, 402, 'insufficient_tokens');
  expect(await rt.get(id)).toEqual(failed);
  expect(await rt.balance()).toBe(refund);
});

test('cancel while queued answers 202 canceling, then canceled 1 s later without ever processing', async () => {
  const rt = runtime();
  const created = await rt.create();
  await rt.advance(0.2);
  const res = await rt.call('POST', `/v1/evaluations/${created.id}/cancel`);
  expect(res.status).toBe(202);
  expect(res.json).toEqual({
    ...created,
    status: 'canceling',
    status_message: expect.any(String),
  });
  // The queue would have ended at 0.5 s: no transition to processing.
  const waiting = await rt.advance(0.999);
  expect(waiting.transitions).toEqual([]);
  expect(await rt.get(created.id)).toEqual(res.json);

  const done = await rt.advance(0.001);
  expect(done.transitions).toEqual([
    { at: at(1.2), resource: created.id, from: 'canceling', to: 'canceled', phase: null },
  ]);
  expect(await rt.get(created.id)).toEqual({
    ...created,
    status: 'canceled',
    status_message: expect.any(String),
    tokens: { charged: DEFAULT_ESTIMATE, refunded: DEFAULT_ESTIMATE },
    completed_at: at(1.2),
  });
  // Nothing more happens to a canceled run.
  expect((await rt.advance(60)).transitions).toEqual([]);
});

test('cancel while processing answers 202 canceling and stops the run where it was', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  await rt.advance(2.5);
  const before = await rt.get(id);
  expect(before).toMatchObject({ status: 'processing', phase: 'running', episodes: { done: 2 } });
  const res = await rt.call('POST', `/v1/evaluations/${id}/cancel`);
  expect(res.status).toBe(202);
  expect(res.json).toMatchObject({
    status: 'canceling',
    phase: 'running',
    progress: before.progress,
    episodes: { done: 2, total: 10 },
    completed_at: null,
  });
  const { transitions } = await rt.advance(10);
  expect(transitions).toEqual([
    { at: at(3.5), resource: id, from: 'canceling', to: 'canceled', phase: 'running' },
  ]);
  expect(await rt.get(id)).toMatchObject({
    status: 'canceled',
    phase: 'running',
    progress: before.progress,
    episodes: { done: 2, total: 10 },
    result: null,
    download: null,
    started_at: at(0.5),
    completed_at: at(3.5),
  });
  expectError(await rt.call('GET', `/v1/evaluations/${id}/archive`), 409, 'run_not_ready');
});

test.each(['queued', 'processing'])(
  'a run seeded as %s through the control API cancels like a running one',
  async (status) => {
    const rt = runtime();
    const seeded = await rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
      spec: SPEC,
      status,
      phase: status === 'processing' ? 'running' : null,
      progress: status === 'processing' ? 0.4 : 0,
    });
    const balance = await rt.balance();
    await rt.advance(2);
    const res = await rt.call('POST', `/v1/evaluations/${seeded.id}/cancel`);
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: 'canceling', status_message: 'Canceling' });
    expect(ids(await rt.call('GET', '/v1/evaluations?status=canceling'))).toEqual([seeded.id]);
    const phase = status === 'processing' ? 'running' : null;
    expect((await rt.advance(1)).transitions).toEqual([
      { at: at(3), resource: seeded.id, from: 'canceling', to: 'canceled', phase },
    ]);
    expect(await rt.get(seeded.id)).toMatchObject({
      status: 'canceled',
      phase,
      status_message: 'Canceled',
      completed_at: at(3),
      tokens: seeded.tokens,
    });
    // Nothing was charged for a seeded run, so nothing is refunded.
    expect(await rt.balance()).toBe(balance);
    expect(ids(await rt.call('GET', '/v1/evaluations?status=canceled'))).toEqual([seeded.id]);
    expectError(
      await rt.call('POST', `/v1/evaluations/${seeded.id}/cancel`),
      409,
      'not_cancelable',
    );
    const resumed = await rt.call('POST', `/v1/evaluations/${seeded.id}/resume`);
    expect(resumed.status).toBe(202);
    expect(resumed.json.status).toBe('queued');
  },
);

test('cancel of a canceling run answers 202, still canceling, and does not push the end back', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  await rt.advance(1);
  const first = await rt.call('POST', `/v1/evaluations/${id}/cancel`);
  await rt.advance(0.5);
  const again = await rt.call('POST', `/v1/evaluations/${id}/cancel`);
  expect(again.status).toBe(202);
  expect(again.json).toEqual(first.json);
  const { transitions } = await rt.advance(0.5);
  expect(transitions).toEqual([
    { at: at(2), resource: id, from: 'canceling', to: 'canceled', phase: 'planning' },
  ]);
});

test('cancel of a succeeded, failed or canceled run answers 409 not_cancelable and changes nothing', async () => {
  const rt = runtime();
  const succeeded = await rt.create();
  const failed = await planned(rt, [{ fail: 'interrupted', at: 'materializing' }]);
  const canceled = await rt.create();
  await rt.call('POST', `/v1/evaluations/${canceled.id}/cancel`);
  await rt.advance(60);
  for (const [id, status] of [
    [succeeded.id, 'succeeded'],
    [failed.id, 'failed'],
    [canceled.id, 'canceled'],
  ] as const) {
    const before = await rt.get(id);
    expect(before.status).toBe(status);
    expectError(await rt.call('POST', `/v1/evaluations/${id}/cancel`), 409, 'not_cancelable');
    expect(await rt.get(id)).toEqual(before);
  }
});

test('resume of a queued, processing or succeeded run answers 409 not_resumable', async () => {
  const rt = runtime();
  const done = await rt.create();
  await rt.advance(60);
  const processing = await rt.create();
  await rt.advance(1);
  const queued = await rt.create();
  for (const id of [queued.id, processing.id, done.id]) {
    expectError(await rt.call('POST', `/v1/evaluations/${id}/resume`), 409, 'not_resumable');
  }
  expect((await rt.get(queued.id)).status).toBe('queued');
  expect((await rt.get(processing.id)).status).toBe('processing');
});

/** One run in each settled state, created in this order: s, f, c, p, q. */
async function oneOfEach(rt: Runtime) {
  const s = await rt.create();
  const f = await planned(rt, [{ fail: 'interrupted', at: 'materializing' }]);
  const c = await rt.create();
  await rt.call('POST', `/v1/evaluations/${c.id}/cancel`);
  await rt.advance(10);
  const p = await rt.create();
  await rt.advance(1);
  const q = await rt.create();
  return { s: s.id, f: f.id, c: c.id, p: p.id, q: q.id };
}

const ids = (res: { json: { data: { id: string }[] } }) => res.json.data.map((e) => e.id);

test('list filters by status and answers newest first, each item as GET shows it', async () => {
  const rt = runtime();
  const run = await oneOfEach(rt);
  const all = await rt.call('GET', '/v1/evaluations');
  expect(all.status).toBe(200);
  expect(ids(all)).toEqual([run.q, run.p, run.c, run.f, run.s]);
  expect(all.json).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
  for (const item of all.json.data) expect(item).toEqual(await rt.get(item.id));

  const expected: Record<string, string[]> = {
    queued: [run.q],
    processing: [run.p],
    canceling: [],
    succeeded: [run.s],
    failed: [run.f],
    canceled: [run.c],
  };
  for (const [status, want] of Object.entries(expected)) {
    const res = await rt.call('GET', `/v1/evaluations?status=${status}`);
    expect({ status, ids: ids(res) }).toEqual({ status, ids: want });
    for (const item of res.json.data) expect(item.status).toBe(status);
  }
  expectError(
    await rt.call('GET', '/v1/evaluations?status=done'),
    400,
    'parameter_invalid',
    'status',
  );
});

// DESIGN.md section 4: a run's status is derived from "now" on its account's clock; GET says
// `canceling` right after a cancel, and so do the list filter and resume, which read the stored
// status.
test('a canceling run is listed under status=canceling, not under its former status', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  await rt.advance(1);
  await rt.call('POST', `/v1/evaluations/${id}/cancel`);
  expect((await rt.get(id)).status).toBe('canceling');
  expect(ids(await rt.call('GET', '/v1/evaluations?status=processing'))).toEqual([]);
  expect(ids(await rt.call('GET', '/v1/evaluations?status=canceling'))).toEqual([id]);
});

test('resume of a canceling run answers 409 not_resumable naming canceling', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  await rt.advance(1);
  await rt.call('POST', `/v1/evaluations/${id}/cancel`);
  const err = expectError(
    await rt.call('POST', `/v1/evaluations/${id}/resume`),
    409,
    'not_resumable',
  );
  expect(err.message).toContain('this run is canceling');
});

test('paging and a status filter combine', async () => {
  const rt = runtime();
  const done: string[] = [];
  for (let i = 0; i < 3; i++) done.push((await rt.create()).id);
  await rt.advance(60);
  await rt.create();
  await rt.create();
  const first = await rt.call('GET', '/v1/evaluations?status=succeeded&limit=2');
  expect(ids(first)).toEqual([done[2], done[1]]);
  expect(first.json).toMatchObject({ has_more: true, next_cursor: done[1] });
  const second = await rt.call(
    'GET',
    `/v1/evaluations?status=succeeded&limit=2&after=${first.json.next_cursor}`,
  );
  expect(ids(second)).toEqual([done[0]]);
  expect(second.json).toMatchObject({ has_more: false, next_cursor: null });
});

test('a run seeded failed with outcomes follows them on its resumes', async () => {
  const { api, control } = testEmulator();
  const seeded = await control('POST', '/accounts/acct_00000000000000000000000001/evaluations', {
    spec: { path: 'sdk/spec.yaml', name: 'seeded' },
    status: 'failed',
    outcomes: [{ fail: 'interrupted' }, { succeed: {} }],
  });
  const advance = () =>
    control('POST', '/accounts/acct_00000000000000000000000001/clock/advance', { seconds: 60 });
  expect((await api('POST', `/v1/evaluations/${seeded.id}/resume`)).status).toBe(202);
  await advance();
  const again = (await api('GET', `/v1/evaluations/${seeded.id}`)).json;
  expect(again).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
  expect((await api('POST', `/v1/evaluations/${seeded.id}/resume`)).status).toBe(202);
  await advance();
  expect((await api('GET', `/v1/evaluations/${seeded.id}`)).json.status).toBe('succeeded');
});
