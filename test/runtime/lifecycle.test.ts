/**
 * The life of an evaluation on the virtual clock (DESIGN.md section 4 "Clock" and "Schedule";
 * API document section 2.2): queued, the six phases, succeeded, walked with manual advances.
 */
import { expect, test } from 'vitest';
import {
  at,
  BASE,
  DEFAULT_END,
  DEFAULT_ESTIMATE,
  DEFAULT_PHASE_STARTS,
  EVAL_ID,
  extractArchive,
  freshAccount,
  HEX64,
  links,
  PHASES,
  runtime,
  SPEC,
} from './support.js';

/** The transitions of one default run, as `advance` answers them (control API, DESIGN.md 5). */
function defaultTransitions(id: string, offset = 0) {
  return [
    ...PHASES.map((phase, i) => ({
      at: at(DEFAULT_PHASE_STARTS[phase] + offset),
      resource: id,
      from: i === 0 ? 'queued' : 'processing',
      to: 'processing',
      phase,
    })),
    {
      at: at(DEFAULT_END + offset),
      resource: id,
      from: 'processing',
      to: 'succeeded',
      phase: 'packaging',
    },
  ];
}

test('a new evaluation answers 201 queued with the whole body, charged its token estimate', async () => {
  const rt = runtime();
  const res = await rt.call('POST', '/v1/evaluations', {
    spec: SPEC,
    label: 'nightly',
    webhook_metadata: { build: '42' },
  });
  expect(res.status).toBe(201);
  expect(res.json.id).toMatch(EVAL_ID);
  expect(res.json).toEqual({
    id: res.json.id,
    object: 'evaluation',
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    episodes: { done: 0, total: 10 },
    error: null,
    spec: SPEC,
    service_version: '2026-09-27',
    options: {},
    label: 'nightly',
    result: null,
    download: null,
    tokens: { charged: DEFAULT_ESTIMATE, refunded: 0 },
    webhook_metadata: { build: '42' },
    created_at: at(0),
    started_at: null,
    completed_at: null,
    links: links(res.json.id),
  });
  expect((await rt.call('GET', `/v1/evaluations/${res.json.id}`)).json).toEqual(res.json);
});

test('a default run walks queued, every phase, then succeeded in 0.5 s steps', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  // [seconds, status, phase, episodes done]: 0.5 s queue, 0.5 s each for materializing,
  // planning and fetching, 10 episodes of 0.25 s, 0.3 s verifying, 0.2 s packaging.
  const walk = [
    [0, 'queued', null, 0],
    [0.5, 'processing', 'materializing', 0],
    [1, 'processing', 'planning', 0],
    [1.5, 'processing', 'fetching', 0],
    [2, 'processing', 'running', 0],
    [2.5, 'processing', 'running', 2],
    [3, 'processing', 'running', 4],
    [3.5, 'processing', 'running', 6],
    [4, 'processing', 'running', 8],
    [4.5, 'processing', 'verifying', 10],
    [5, 'succeeded', null, 10],
  ] as const;
  let previous = -1;
  for (const [seconds, status, phase, done] of walk) {
    if (seconds > 0) await rt.advance(0.5);
    const run = await rt.get(id);
    expect({ seconds, status: run.status, phase: run.phase, episodes: run.episodes }).toEqual({
      seconds,
      status,
      phase,
      episodes: { done, total: 10 },
    });
    expect(run.progress).toBeGreaterThanOrEqual(previous);
    previous = run.progress;
    if (status === 'queued') expect(run.progress).toBe(0);
    if (status === 'processing') {
      // Time since the queue over the whole planned run, never 1 before success.
      expect(Math.abs(run.progress - (seconds - 0.5) / 4.5)).toBeLessThan(0.001);
      expect(run.progress).toBeLessThan(1);
      expect(run.status_message).toEqual(expect.any(String));
    }
    expect(run.started_at).toBe(seconds >= 0.5 ? at(0.5) : null);
    expect(run.completed_at).toBe(status === 'succeeded' ? at(5) : null);
  }
  expect(previous).toBe(1);
});

test('a succeeded run answers the whole body: result, download, tokens, timestamps', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  await rt.advance(DEFAULT_END);
  const run = await rt.get(id);
  const hash = run.result.manifest_hash;
  expect(hash).toMatch(HEX64);
  expect(run).toEqual({
    id,
    object: 'evaluation',
    status: 'succeeded',
    phase: null,
    progress: 1,
    status_message: 'Succeeded',
    episodes: { done: 10, total: 10 },
    error: null,
    spec: SPEC,
    service_version: '2026-09-27',
    options: {},
    label: null,
    result: {
      verified: true,
      run_id: hash.slice(0, 12),
      manifest_hash: hash,
      run_hash: expect.stringMatching(HEX64),
      determinism_verified: true,
      metrics: [
        {
          id: 'success_rate',
          version: expect.any(String),
          value: expect.any(Number),
          interval: [expect.any(Number), expect.any(Number)],
          n: 10,
        },
      ],
    },
    download: {
      url: `${BASE}/v1/evaluations/${id}/archive`,
      requires_auth: true,
      expires_at: null,
      filename: `${id}.tar.gz`,
      bytes: expect.any(Number),
      sha256: expect.stringMatching(HEX64),
    },
    tokens: { charged: DEFAULT_ESTIMATE, refunded: 0 },
    webhook_metadata: null,
    created_at: at(0),
    started_at: at(0.5),
    completed_at: at(5),
    links: links(id),
  });
});

test('the transitions answered by advance are in time order and name each phase', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  const seen: unknown[] = [];
  const perStep: number[] = [];
  for (let i = 1; i <= 12; i++) {
    const res = await rt.advance(0.5);
    expect(res).toEqual({
      account_id: rt.accountId,
      now: at(i * 0.5),
      mode: 'manual',
      transitions: expect.any(Array),
    });
    seen.push(...res.transitions);
    perStep.push(res.transitions.length);
  }
  expect(seen).toEqual(defaultTransitions(id));
  // 0.5 materializing, 1 planning, 1.5 fetching, 2 running, nothing while episodes run,
  // 4.5 verifying, 5 packaging (at 4.8) and succeeded, nothing after the end.
  expect(perStep).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 1, 2, 0, 0]);
});

test('one advance over the whole run answers every transition in order, by seconds or by to', async () => {
  const bySeconds = runtime();
  const a = await bySeconds.create();
  const one = await bySeconds.advance(60);
  expect(one).toEqual({
    account_id: bySeconds.accountId,
    now: at(60),
    mode: 'manual',
    transitions: defaultTransitions(a.id),
  });

  const byTo = runtime();
  const b = await byTo.create();
  expect(b.id).toBe(a.id);
  expect(await byTo.advanceTo(at(60))).toEqual(one);
});

test('a default run completes in 5 virtual seconds: still processing at 4.999 s, succeeded at 5 s', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  const before = await rt.advance(4.999);
  expect(before.transitions).toEqual(defaultTransitions(id).slice(0, 6));
  const almost = await rt.get(id);
  expect(almost).toMatchObject({
    status: 'processing',
    phase: 'packaging',
    episodes: { done: 10, total: 10 },
    result: null,
    download: null,
    completed_at: null,
  });
  expect(almost.progress).toBeLessThan(1);

  const end = await rt.advance(0.001);
  expect(end.transitions).toEqual([
    { at: at(5), resource: id, from: 'processing', to: 'succeeded', phase: 'packaging' },
  ]);
  expect(await rt.get(id)).toMatchObject({
    status: 'succeeded',
    progress: 1,
    completed_at: at(5),
  });
});

test('options.episodes and durations_s move every phase of the timeline', async () => {
  const rt = runtime();
  const { id, episodes, tokens } = await rt.create({
    spec: SPEC,
    options: {
      episodes: 4,
      emulator: {
        durations_s: {
          queue: 1,
          materializing: 0.25,
          planning: 0.25,
          fetching: 0.5,
          episode: 1,
          verifying: 0.5,
          packaging: 0.5,
        },
      },
    },
  });
  expect(episodes).toEqual({ done: 0, total: 4 });
  expect(tokens).toEqual({ charged: 10 + 5 * 4, refunded: 0 });
  // Queue to 1 s; phases start at 1, 1.25, 1.5, 2 (four 1 s episodes), 6, 6.5; the end at 7.
  const samples = [
    [0.999, 'queued', null, 0],
    [1, 'processing', 'materializing', 0],
    [1.25, 'processing', 'planning', 0],
    [1.5, 'processing', 'fetching', 0],
    [2, 'processing', 'running', 0],
    [2.999, 'processing', 'running', 0],
    [3, 'processing', 'running', 1],
    [5.999, 'processing', 'running', 3],
    [6, 'processing', 'verifying', 4],
    [6.5, 'processing', 'packaging', 4],
    [6.999, 'processing', 'packaging', 4],
    [7, 'succeeded', null, 4],
  ] as const;
  const transitions: unknown[] = [];
  for (const [seconds, status, phase, done] of samples) {
    transitions.push(...(await rt.advanceTo(at(seconds))).transitions);
    const run = await rt.get(id);
    expect({ seconds, status: run.status, phase: run.phase, done: run.episodes.done }).toEqual({
      seconds,
      status,
      phase,
      done,
    });
  }
  const starts = [1, 1.25, 1.5, 2, 6, 6.5];
  expect(transitions).toEqual([
    ...PHASES.map((phase, i) => ({
      at: at(starts[i]!),
      resource: id,
      from: i === 0 ? 'queued' : 'processing',
      to: 'processing',
      phase,
    })),
    { at: at(7), resource: id, from: 'processing', to: 'succeeded', phase: 'packaging' },
  ]);
  const done = await rt.get(id);
  expect(done.started_at).toBe(at(1));
  expect(done.completed_at).toBe(at(7));
  expect(done.result.metrics[0].n).toBe(4);
});

test('options.episodes alone adds 0.25 s of running per episode', async () => {
  const rt = runtime();
  const { id } = await rt.create({ spec: SPEC, options: { episodes: 20 } });
  // 2 s before running, 20 x 0.25 s, 0.5 s after: 7.5 s.
  await rt.advance(7.499);
  expect(await rt.get(id)).toMatchObject({ status: 'processing', phase: 'packaging' });
  const end = await rt.advance(0.001);
  expect(end.transitions).toEqual([
    { at: at(7.5), resource: id, from: 'processing', to: 'succeeded', phase: 'packaging' },
  ]);
  expect(await rt.get(id)).toMatchObject({
    status: 'succeeded',
    episodes: { done: 20, total: 20 },
    tokens: { charged: 110, refunded: 0 },
  });
});

test('the transitions of several runs of one account are merged in time order', async () => {
  const rt = runtime();
  const a = await rt.create();
  await rt.advance(0.25);
  const b = await rt.create({ spec: { path: 'specs/stack.py', name: 'stack' } });
  const res = await rt.advance(10);
  const times = res.transitions.map((t: { at: string }) => t.at);
  expect(times).toEqual([...times].sort());
  expect(res.transitions.filter((t: { resource: string }) => t.resource === a.id)).toEqual(
    defaultTransitions(a.id),
  );
  expect(res.transitions.filter((t: { resource: string }) => t.resource === b.id)).toEqual(
    defaultTransitions(b.id, 0.25),
  );
  expect(res.transitions).toHaveLength(14);
});

test("advancing one account's clock leaves another account's runs where they were", async () => {
  const rt = runtime();
  const other = await freshAccount(rt);
  const mine = await rt.create();
  const theirs = await other.create();
  const res = await rt.advance(10);
  expect(res.transitions.map((t: { resource: string }) => t.resource)).not.toContain(theirs.id);
  expect((await rt.get(mine.id)).status).toBe('succeeded');
  expect(await other.get(theirs.id)).toEqual(theirs);
  expect((await other.advance(10)).transitions).toEqual(defaultTransitions(theirs.id));
});

test('logs grow with every advance, in time order, and end equal to the archive logs/sdk.log', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  let lines = await rt.logs(id);
  expect(lines.length).toBeGreaterThan(0);
  for (let now = 0.5; now <= DEFAULT_END; now += 0.5) {
    await rt.advance(0.5);
    const next = await rt.logs(id);
    // Append-only: what was printed stays, and every step of the run prints something.
    expect(next.length).toBeGreaterThan(lines.length);
    expect(next.slice(0, lines.length)).toEqual(lines);
    const stamps = next.map((l) => l.slice(0, 24));
    expect(stamps).toEqual([...stamps].sort());
    expect(stamps.every((s) => s <= at(now))).toBe(true);
    lines = next;
  }
  await rt.advance(10);
  expect(await rt.logs(id)).toEqual(lines);

  const archive = await rt.archive(id);
  expect(archive.status).toBe(200);
  const sdkLog = extractArchive(archive.bytes).get(`${id}/logs/sdk.log`)!.toString('utf8');
  expect(sdkLog).toBe(lines.map((l) => `${l}\n`).join(''));
  // The log names each phase and each episode of the run.
  for (const phase of PHASES) expect(sdkLog).toContain(phase);
  for (let i = 1; i <= 10; i++) expect(sdkLog).toContain(`episode ${i}/10`);
});

// DESIGN.md section 4: "each transition ... is applied once, in time order, when the clock passes
// it", and section 1.3: a test "can jump a run from queued to succeeded in one call and see every
// phase in between in the event order". With a zero-second queue the materializing phase starts
// at the creation instant (and planning too when materializing also lasts zero seconds): those
// events are still reported by the next clock advance and logged.
test('a zero-second queue still reports and logs every phase of the run', async () => {
  const rt = runtime();
  const { id } = await rt.create({
    spec: SPEC,
    options: { episodes: 2, emulator: { durations_s: { queue: 0, materializing: 0 } } },
  });
  const res = await rt.advance(10);
  expect(res.transitions.map((t: { phase: string }) => t.phase)).toEqual([...PHASES, 'packaging']);
  const log = (await rt.logs(id)).join('\n');
  for (const phase of PHASES) expect(log).toContain(`phase ${phase} started`);
});

// Control API (DESIGN.md section 5): the transitions applied, in order. A phase that lasts zero
// seconds starts at the same instant as the next one; the run leaves `queued` once.
test('a zero-second phase is reported once, the next phase from processing', async () => {
  const rt = runtime();
  const { id } = await rt.create({
    spec: SPEC,
    options: { emulator: { durations_s: { materializing: 0 } } },
  });
  const res = await rt.advance(0.5);
  expect(res.transitions).toEqual([
    { at: at(0.5), resource: id, from: 'queued', to: 'processing', phase: 'materializing' },
    { at: at(0.5), resource: id, from: 'processing', to: 'processing', phase: 'planning' },
  ]);
});

const ALL_ZERO = {
  queue: 0,
  materializing: 0,
  planning: 0,
  fetching: 0,
  episode: 0,
  verifying: 0,
  packaging: 0,
};

test('a run of zero seconds answers queued, then the next advance reports every phase and the end', async () => {
  const rt = runtime();
  const created = await rt.create({
    spec: SPEC,
    options: { episodes: 3, emulator: { durations_s: ALL_ZERO } },
  });
  // Its result is stored when the end is applied, so the create answer does not claim it yet.
  expect(created).toMatchObject({ status: 'queued', result: null, completed_at: null });
  const res = await rt.advance(0);
  expect(res.transitions).toEqual([
    ...PHASES.map((phase, i) => ({
      at: at(0),
      resource: created.id,
      from: i === 0 ? 'queued' : 'processing',
      to: 'processing',
      phase,
    })),
    { at: at(0), resource: created.id, from: 'processing', to: 'succeeded', phase: 'packaging' },
  ]);
  expect(await rt.get(created.id)).toMatchObject({
    status: 'succeeded',
    progress: 1,
    episodes: { done: 3, total: 3 },
    result: { verified: true },
    completed_at: at(0),
  });
  const log = (await rt.logs(created.id)).join('\n');
  for (let i = 1; i <= 3; i++) expect(log).toContain(`episode ${i}/3`);
});

test('zero-second episodes count as done as soon as running starts', async () => {
  const rt = runtime();
  const { id } = await rt.create({
    spec: SPEC,
    options: { episodes: 3, emulator: { durations_s: { episode: 0 } } },
  });
  await rt.advance(DEFAULT_PHASE_STARTS.running);
  expect(await rt.get(id)).toMatchObject({
    status: 'processing',
    phase: 'verifying',
    episodes: { done: 3, total: 3 },
  });
});

test('a zero-second last phase is still reported before the end', async () => {
  const rt = runtime();
  const { id } = await rt.create({
    spec: SPEC,
    options: { emulator: { durations_s: { packaging: 0 } } },
  });
  const res = await rt.advance(60);
  expect(res.transitions.map((t: { phase: string }) => t.phase)).toEqual([...PHASES, 'packaging']);
  expect((await rt.logs(id)).join('\n')).toContain('phase packaging started');
});

test('a failure in a zero-second phase names that phase', async () => {
  const rt = runtime();
  const { id } = await rt.create({
    spec: SPEC,
    options: {
      emulator: { durations_s: { materializing: 0 }, outcomes: [{ fail: 'spec_invalid' }] },
    },
  });
  const res = await rt.advance(60);
  expect(res.transitions).toEqual([
    { at: at(0.5), resource: id, from: 'queued', to: 'processing', phase: 'materializing' },
    { at: at(0.5), resource: id, from: 'processing', to: 'failed', phase: 'materializing' },
  ]);
  expect(await rt.get(id)).toMatchObject({ status: 'failed', phase: 'materializing' });
  expect(await rt.logs(id)).toContain(
    `${at(0.5)} run failed in materializing: spec_invalid: The SDK spec is invalid.`,
  );
});

test('policy_failed after 1 of 3 zero-second episodes logs one episode, then the failure', async () => {
  const rt = runtime();
  const { id } = await rt.create({
    spec: SPEC,
    options: {
      episodes: 3,
      emulator: {
        durations_s: { episode: 0 },
        outcomes: [{ fail: 'policy_failed', after_episodes: 1 }],
      },
    },
  });
  await rt.advance(60);
  const log = (await rt.logs(id)).join('\n');
  expect(log).toContain('episode 1/3');
  expect(log).not.toContain('episode 2/3');
  expect(await rt.get(id)).toMatchObject({
    status: 'failed',
    phase: 'running',
    episodes: { done: 1, total: 3 },
  });
});
