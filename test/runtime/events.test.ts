/**
 * The event log on the virtual clock (DESIGN.md section 4: "each transition (and each webhook
 * event) is applied once, in time order, when the clock passes it"; section 3: `evt_` ids):
 * what runs of every kind (twins too) record, through the real app.
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT } from '../helpers.js';
import { at, DEFAULT_ESTIMATE, links, type Runtime, runtime, SPEC } from './support.js';

const EVT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Every event of the account, oldest first (the API lists newest first). */
async function eventLog(rt: Runtime, query = '') {
  const res = await rt.call('GET', `/v1/events?limit=100${query}`);
  if (res.status !== 200) throw new Error(`events: ${res.status} ${res.text}`);
  expect(res.json).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
  return [...res.json.data].reverse();
}

/** An event with the resource as GET showed it (`object`) at `seconds`. */
function event(type: string, seconds: number, object: unknown, previous: string | null) {
  return {
    id: expect.stringMatching(EVT_ID),
    object: 'event',
    type,
    created_at: at(seconds),
    data: { object, previous_status: previous },
    webhook_metadata: (object as { webhook_metadata?: unknown }).webhook_metadata ?? null,
  };
}

test('a default run records queued on create, then processing and succeeded on one advance', async () => {
  const rt = runtime();
  const created = await rt.create({ spec: SPEC, webhook_metadata: { build: '42' } });
  expect(await eventLog(rt)).toEqual([event('evaluation.queued', 0, created, null)]);

  await rt.advance(5);
  const done = await rt.get(created.id);
  const log = await eventLog(rt);
  expect(log).toEqual([
    event('evaluation.queued', 0, created, null),
    event(
      'evaluation.processing',
      0.5,
      {
        ...created,
        status: 'processing',
        phase: 'materializing',
        progress: 0,
        status_message: 'Phase materializing',
        episodes: { done: 0, total: 10 },
        tokens: { charged: DEFAULT_ESTIMATE, refunded: 0 },
        started_at: at(0.5),
        completed_at: null,
        links: links(created.id),
      },
      'queued',
    ),
    event('evaluation.succeeded', 5, done, 'processing'),
  ]);
  expect(log[2].webhook_metadata).toEqual({ build: '42' });
  expect(new Set(log.map((e) => e.id)).size).toBe(3);
  // Each event is also served alone, with the same body.
  for (const e of log) expect((await rt.call('GET', `/v1/events/${e.id}`)).json).toEqual(e);
});

test('a run that fails, is resumed and succeeds records each status it enters, in order', async () => {
  const rt = runtime();
  const created = await rt.create({
    spec: SPEC,
    options: {
      episodes: 2,
      emulator: { outcomes: [{ fail: 'interrupted', at: 'fetching' }, { succeed: {} }] },
    },
  });
  await rt.advance(10);
  const failed = await rt.get(created.id);
  expect(failed.status).toBe('failed');
  const resumed = await rt.call('POST', `/v1/evaluations/${created.id}/resume`);
  expect(resumed.status).toBe(202);
  await rt.advance(10);
  const done = await rt.get(created.id);

  const log = await eventLog(rt);
  expect(log.map((e) => [e.type, e.created_at, e.data.previous_status])).toEqual([
    ['evaluation.queued', at(0), null],
    ['evaluation.processing', at(0.5), 'queued'],
    ['evaluation.failed', at(1.75), 'processing'],
    ['evaluation.queued', at(10), 'failed'],
    ['evaluation.processing', at(10.5), 'queued'],
    ['evaluation.succeeded', at(13), 'processing'],
  ]);
  expect(log[2]).toEqual(event('evaluation.failed', 1.75, failed, 'processing'));
  expect(log[3]).toEqual(event('evaluation.queued', 10, resumed.json, 'failed'));
  expect(log[5]).toEqual(event('evaluation.succeeded', 13, done, 'processing'));
  // Every body is the run as it stood then: the failure's error, no error once resumed.
  expect(log[2].data.object.error.code).toBe('interrupted');
  expect(log[3].data.object).toMatchObject({ status: 'queued', error: null, progress: 0 });
});

test('a cancel records canceling at the request and canceled a virtual second later, once', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  await rt.advance(3);
  const canceling = await rt.call('POST', `/v1/evaluations/${id}/cancel`);
  expect(canceling.json.status).toBe('canceling');
  // Canceling again changes nothing, and records nothing.
  expect((await rt.call('POST', `/v1/evaluations/${id}/cancel`)).status).toBe(202);
  await rt.advance(1);
  const canceled = await rt.get(id);

  const log = await eventLog(rt);
  expect(log.map((e) => e.type)).toEqual([
    'evaluation.queued',
    'evaluation.processing',
    'evaluation.canceling',
    'evaluation.canceled',
  ]);
  expect(log[2]).toEqual(event('evaluation.canceling', 3, canceling.json, 'processing'));
  expect(log[3]).toEqual(event('evaluation.canceled', 4, canceled, 'canceling'));
  expect(log[3].data.object.tokens.refunded).toBeGreaterThan(0);
});

test('a twin built on the clock records processing and succeeded; seeding it records nothing', async () => {
  const rt = runtime();
  const twin = await rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {});
  expect(await eventLog(rt)).toEqual([]);
  await rt.advance(5);
  // Twins run on the engine: each event carries the twin's whole body as GET showed it.
  const shown = (status: string, phase: string | null) =>
    expect.objectContaining({ id: twin.id, object: 'twin', status, phase });
  expect(await eventLog(rt)).toEqual([
    event('twin.processing', 1, shown('processing', 'extracting'), 'queued'),
    event('twin.succeeded', 5, shown('succeeded', null), 'processing'),
  ]);
  const failing = await rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {
    fail: true,
  });
  await rt.advance(5);
  const failed = expect.objectContaining({ id: failing.id, status: 'failed' });
  expect(await eventLog(rt, `&resource=${failing.id}`)).toEqual([
    event('twin.processing', 6, expect.objectContaining({ status: 'processing' }), 'queued'),
    // Built to fail reconstructing its second part: 1 s queued, 1 s extracting, 0.75 s more.
    event('twin.failed', 7.75, failed, 'processing'),
  ]);
});

test('seeding through the control API records nothing; what follows on the clock or the API does', async () => {
  const rt = runtime();
  const path = `/accounts/${DEFAULT_ACCOUNT}/evaluations`;
  const fixed = await rt.emu.control('POST', path, { spec: SPEC, status: 'processing' });
  await rt.emu.control('POST', path, { spec: SPEC, status: 'failed' });
  const onClock = await rt.emu.control('POST', path, { spec: SPEC });
  expect(await eventLog(rt)).toEqual([]);

  await rt.call('POST', `/v1/evaluations/${fixed.id}/cancel`);
  await rt.advance(5);
  const log = await eventLog(rt);
  expect(log.map((e) => [e.type, e.data.object.id, e.created_at])).toEqual([
    ['evaluation.canceling', fixed.id, at(0)],
    ['evaluation.processing', onClock.id, at(0.5)],
    ['evaluation.canceled', fixed.id, at(1)],
    ['evaluation.succeeded', onClock.id, at(5)],
  ]);
});

test('a request settles the account and records what fell due, without a clock advance', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  await rt.emu.control('PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, { now: at(60) });
  expect((await eventLog(rt)).map((e) => [e.type, e.created_at])).toEqual([
    ['evaluation.queued', at(0)],
    ['evaluation.processing', at(0.5)],
    ['evaluation.succeeded', at(5)],
  ]);
  expect((await rt.get(id)).status).toBe('succeeded');
});

test('many small advances record exactly the events of one large advance, ids included', async () => {
  async function drive(steps: number[]) {
    const rt = runtime();
    await rt.create();
    await rt.create({
      spec: SPEC,
      options: { episodes: 3, emulator: { outcomes: [{ fail: 'policy_failed' }] } },
    });
    await rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {});
    for (const s of steps) await rt.advance(s);
    return eventLog(rt);
  }
  const once = await drive([6]);
  const small = await drive(Array.from({ length: 60 }, () => 0.1));
  expect(small).toEqual(once);
  expect(once.map((e) => e.type)).toEqual([
    'evaluation.queued',
    'evaluation.queued',
    'evaluation.processing',
    'evaluation.processing',
    'twin.processing',
    'evaluation.failed',
    'evaluation.succeeded',
    'twin.succeeded',
  ]);
  // Time order: created_at never goes back.
  const instants = once.map((e) => e.created_at);
  expect([...instants].sort()).toEqual(instants);
});

test('zero-second phases: the queued event shows the run queued, processing follows at the same instant', async () => {
  const rt = runtime();
  const durations_s = { queue: 0, materializing: 0, planning: 0, fetching: 0, episode: 0 };
  const created = await rt.create({
    spec: SPEC,
    options: { episodes: 1, emulator: { durations_s: { ...durations_s, verifying: 0 } } },
  });
  const allZero = await rt.create({
    spec: SPEC,
    options: {
      episodes: 1,
      emulator: { durations_s: { ...durations_s, verifying: 0, packaging: 0 } },
    },
  });
  await rt.advance(1);
  const log = await eventLog(rt);
  expect(log.map((e) => [e.type, e.data.object.id, e.data.object.status, e.created_at])).toEqual([
    ['evaluation.queued', created.id, 'queued', at(0)],
    // The second create settles the account first: the first run's start falls due at 0.
    ['evaluation.processing', created.id, 'processing', at(0)],
    ['evaluation.queued', allZero.id, 'queued', at(0)],
    ['evaluation.processing', allZero.id, 'processing', at(0)],
    ['evaluation.succeeded', allZero.id, 'succeeded', at(0)],
    ['evaluation.succeeded', created.id, 'succeeded', at(0.2)],
  ]);
  expect(log[1].data.object).toMatchObject({ phase: 'packaging', started_at: at(0) });
  // A run of zero seconds in all reads `queued` until its end; its processing instant is shown.
  expect(log[3].data.object).toMatchObject({ status: 'processing', phase: 'materializing' });
});

test('the same seed and requests give the same event ids and bodies in two emulators', async () => {
  async function drive() {
    const rt = runtime();
    const { id } = await rt.create({ spec: SPEC, label: 'a', webhook_metadata: { k: 1 } });
    await rt.create({
      spec: SPEC,
      options: { emulator: { outcomes: [{ fail: 'verification_failed' }] } },
    });
    await rt.advance(2);
    await rt.call('POST', `/v1/evaluations/${id}/cancel`);
    await rt.advance(4);
    await rt.call('POST', `/v1/evaluations/${id}/resume`);
    await rt.advance(6);
    return (await rt.call('GET', '/v1/events?limit=100')).text;
  }
  const [a, b] = [await drive(), await drive()];
  expect(a).toBe(b);
  expect(JSON.parse(a).data).toHaveLength(10);
});
