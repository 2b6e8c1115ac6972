/**
 * Scenario runs' own rules (API document section 1: "Run a policy across built-in simulated
 * scenarios; yields success rate, failure reasons, edge cases"; DESIGN.md section 7): their
 * body, timeline, result and archive contents, failure codes and request checks. What every
 * kind shares (paging, cancel, resume, archive digest, 404, scopes, usage, determinism) is
 * test/engine's.
 */
import { expect, test } from 'vitest';
import { expectApiError, expectOk } from '../../../test/api/support.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, testEmulator } from '../../../test/helpers.js';
import { at, BASE, extractArchive, raw, wilson } from '../../../test/runtime/support.js';
import type { EmulatorOptions } from '../../emulator.js';
import { scenarioRuns } from './index.js';

/** An emulator serving this kind only, as the kind's own tests need no other. */
const ownKind = (options: EmulatorOptions = {}) =>
  testEmulator({ kinds: [scenarioRuns], ...options });

const POLICY = 'pol_01KA0000000000000000PANDA1';
const PICK = 'scn_builtin_pick_place';
const PUSH = 'scn_builtin_push';
const BODY = { policy: POLICY, scenarios: [PICK, PUSH] };
const ID = /^scnrun_[0-9A-HJKMNP-TV-Z]{26}$/;
/** 10 + 2 x 20 episodes. */
const ESTIMATE = 50;

type Emu = ReturnType<typeof testEmulator>;

function setup() {
  const emu = ownKind();
  const create = async (body: Record<string, unknown> = BODY) => {
    const res = await emu.api('POST', '/v1/scenario_runs', { body });
    expectOk(res, 201);
    return res.json;
  };
  const get = async (id: string) => (await emu.api('GET', `/v1/scenario_runs/${id}`)).json;
  const advance = (seconds: number) =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });
  const balance = async (): Promise<number> =>
    (await emu.control('GET', `/accounts/${DEFAULT_ACCOUNT}`)).token_balance;
  const archive = (id: string) =>
    raw(emu, `/v1/scenario_runs/${id}/archive`, {
      headers: { authorization: `Bearer ${DEFAULT_SECRET}` },
    });
  return { emu, api: emu.api, create, get, advance, balance, archive };
}

const links = (id: string) => ({
  self: `${BASE}/v1/scenario_runs/${id}`,
  logs: `${BASE}/v1/scenario_runs/${id}/logs`,
  files: `${BASE}/v1/scenario_runs/${id}/files`,
  archive: `${BASE}/v1/scenario_runs/${id}/archive`,
});

/** A create call's answer, for the validation tests. */
const post = (emu: Emu, body: Record<string, unknown>) =>
  emu.api('POST', '/v1/scenario_runs', { body });

test('create answers 201 queued with the whole body, charged its estimate', async () => {
  const { create } = setup();
  const run = await create({ ...BODY, label: 'nightly', webhook_metadata: { build: '7' } });
  expect(run.id).toMatch(ID);
  expect(run).toEqual({
    id: run.id,
    object: 'scenario_run',
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    policy: POLICY,
    scenarios: [PICK, PUSH],
    episodes_per_scenario: 10,
    hardware_tier: 'gpu-a10',
    episodes: { done: 0, total: 20 },
    error: null,
    service_version: '2026-09-27',
    options: {},
    label: 'nightly',
    result: null,
    download: null,
    tokens: { charged: ESTIMATE, refunded: 0 },
    webhook_metadata: { build: '7' },
    created_at: at(0),
    started_at: null,
    completed_at: null,
    links: links(run.id),
  });
});

test('advancing the clock walks provisioning, running, aggregating, packaging, then succeeded at 7.5 s', async () => {
  const { create, get, advance } = setup();
  const run = await create();
  const moved = await advance(10);
  expect(
    moved.transitions.map((t: Record<string, string>) => [t.at, t.from, t.to, t.phase]),
  ).toEqual([
    [at(0.5), 'queued', 'processing', 'provisioning'],
    [at(1.5), 'processing', 'processing', 'running'],
    [at(6.5), 'processing', 'processing', 'aggregating'],
    [at(7), 'processing', 'processing', 'packaging'],
    [at(7.5), 'processing', 'succeeded', 'packaging'],
  ]);
  const done = await get(run.id);
  expect(done).toMatchObject({
    status: 'succeeded',
    progress: 1,
    episodes: { done: 20, total: 20 },
    error: null,
    tokens: { charged: ESTIMATE, refunded: 0 },
    started_at: at(0.5),
    completed_at: at(7.5),
  });
});

test('the episodes are counted as the running phase goes, one per episode across all scenarios', async () => {
  const { create, get, advance } = setup();
  const run = await create();
  await advance(1.5 + 0.25 * 13);
  expect(await get(run.id)).toMatchObject({
    status: 'processing',
    phase: 'running',
    episodes: { done: 13, total: 20 },
  });
});

test('the archive holds the summary, failures, edge cases, one file per scenario and the log', async () => {
  const { api, create, get, advance, archive } = setup();
  const run = await create();
  await advance(10);
  const { result } = await get(run.id);
  const res = await archive(run.id);
  const files = await api('GET', `/v1/scenario_runs/${run.id}/files`);
  expectOk(files, 200);
  expect(files.json.data.map((f: { path: string }) => f.path)).toEqual([
    'edge_cases.json',
    'failures.json',
    'logs/scenario_run.log',
    `scenarios/${PICK}.json`,
    `scenarios/${PUSH}.json`,
    'summary.json',
  ]);

  const contents = extractArchive(res.bytes);
  expect(JSON.parse(contents.get(`${run.id}/summary.json`)!.toString())).toEqual(result);
  const logs = await api('GET', `/v1/scenario_runs/${run.id}/logs?limit=5000`);
  expectOk(logs, 200);
  const lines: string[] = logs.json.lines;
  expect(lines[0]).toBe(
    `${at(0)} attempt 1 queued: 20 episodes across 2 scenarios, policy ${POLICY}`,
  );
  expect(lines.filter((l) => / episode \d+\/20 /.test(l))).toHaveLength(20);
  expect(lines.at(-1)).toMatch(/^2026-01-01T00:00:07\.500Z run succeeded: success_rate=/);
  expect(contents.get(`${run.id}/logs/scenario_run.log`)!.toString()).toBe(
    lines.map((l) => `${l}\n`).join(''),
  );
});

interface Episode {
  index: number;
  success: boolean;
  return: number;
  failure_reason: string | null;
}

test('every figure is derived from its episodes: rates, Wilson intervals, failure reasons and edge cases', async () => {
  const { create, get, advance, archive } = setup();
  const run = await create();
  await advance(10);
  const { result } = await get(run.id);
  const contents = extractArchive((await archive(run.id)).bytes);
  const close = (got: [number, number], want: [number, number]) => {
    expect(got[0]).toBeCloseTo(want[0], 6);
    expect(got[1]).toBeCloseTo(want[1], 6);
  };
  let k = 0;
  const failures: unknown[] = [];
  expect(result.scenarios.map((s: { scenario: string }) => s.scenario)).toEqual([PICK, PUSH]);
  for (const figures of result.scenarios) {
    const file = JSON.parse(
      contents.get(`${run.id}/scenarios/${figures.scenario}.json`)!.toString(),
    );
    const episodes: Episode[] = file.episodes;
    const { episodes: _, ...rest } = file;
    expect(rest).toEqual(figures);
    expect(figures.task).toBe(figures.scenario.replace('scn_builtin_', ''));
    expect(episodes.map((e) => e.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const wins = episodes.filter((e) => e.success).length;
    const failed = episodes.filter((e) => !e.success);
    k += wins;
    expect(figures.n).toBe(10);
    expect(figures.success_rate).toBe(wins / 10);
    close(figures.interval, wilson(wins, 10));
    const counts: Record<string, number> = {};
    for (const e of failed) counts[e.failure_reason!] = (counts[e.failure_reason!] ?? 0) + 1;
    expect(
      Object.fromEntries(
        figures.failure_reasons.map((r: { reason: string; count: number }) => [r.reason, r.count]),
      ),
    ).toEqual(counts);
    for (const r of figures.failure_reasons)
      expect(['grasp_slipped', 'timeout', 'collision', 'object_dropped']).toContain(r.reason);
    const worst = [...failed].sort((a, b) => a.return - b.return).slice(0, 3);
    expect(figures.edge_cases.map((e: { episode: number }) => e.episode)).toEqual(
      worst.map((e) => e.index),
    );
    for (const e of figures.edge_cases) expect(e.description).toEqual(expect.any(String));
    for (const e of failed)
      failures.push({
        scenario: figures.scenario,
        episode: e.index,
        reason: e.failure_reason,
        return: e.return,
      });
  }
  expect(result.policy).toBe(POLICY);
  expect(result.n).toBe(20);
  expect(result.success_rate).toBe(k / 20);
  close(result.interval, wilson(k, 20));
  expect(JSON.parse(contents.get(`${run.id}/failures.json`)!.toString())).toEqual(failures);
  expect(JSON.parse(contents.get(`${run.id}/edge_cases.json`)!.toString())).toEqual(
    result.scenarios.flatMap((s: { scenario: string; edge_cases: object[] }) =>
      s.edge_cases.map((e) => ({ scenario: s.scenario, ...e })),
    ),
  );
});

test("a scenario's figures depend only on the policy, the scenario and the episode, not on the run", async () => {
  const { create, get, advance } = setup();
  const both = await create();
  const alone = await create({ policy: POLICY, scenarios: [PUSH], label: 'other' });
  const other = await create({ policy: 'pol_01KA0000000000000000UR5E01', scenarios: [PUSH] });
  await advance(10);
  const pushOf = async (id: string) => (await get(id)).result.scenarios.at(-1);
  expect(await pushOf(alone.id)).toEqual(await pushOf(both.id));
  expect((await pushOf(other.id)).scenario).toBe(PUSH);
  expect(await pushOf(other.id)).not.toEqual(await pushOf(both.id));
});

test('succeed.success_rate sets the per-episode success probability: 1 and 0 give all or none', async () => {
  const { create, get, advance } = setup();
  const all = await create({
    ...BODY,
    options: { emulator: { outcomes: [{ succeed: { success_rate: 1 } }] } },
  });
  const none = await create({
    ...BODY,
    options: { emulator: { outcomes: [{ succeed: { success_rate: 0 } }] } },
  });
  await advance(10);
  const high = (await get(all.id)).result;
  expect(high.success_rate).toBe(1);
  expect(high.interval[1]).toBe(1);
  expect(high.interval[0]).toBeCloseTo(wilson(20, 20)[0], 6);
  for (const s of high.scenarios) {
    expect(s).toMatchObject({ success_rate: 1, failure_reasons: [], edge_cases: [] });
  }
  const low = (await get(none.id)).result;
  expect(low.success_rate).toBe(0);
  expect(low.interval[0]).toBe(0);
  for (const s of low.scenarios) {
    expect(s.success_rate).toBe(0);
    expect(s.failure_reasons.reduce((n: number, r: { count: number }) => n + r.count, 0)).toBe(10);
    expect(s.edge_cases).toHaveLength(3);
  }
});

test('policy_failed fails at running with the episode location and refunds the unconsumed tokens', async () => {
  const { api, create, get, advance, balance } = setup();
  const before = await balance();
  const run = await create({
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'policy_failed', after_episodes: 13 }] } },
  });
  await advance(10);
  // The 14th episode is the 4th of the second scenario; it fails half-way, at 4.875 s.
  const failed = await get(run.id);
  expect(failed).toMatchObject({
    status: 'failed',
    phase: 'running',
    episodes: { done: 13, total: 20 },
    result: null,
    download: null,
    completed_at: at(4.875),
    error: {
      code: 'policy_failed',
      message: expect.any(String),
      resumable: true,
      param: null,
      details: { location: `scenarios/${PUSH}/episodes/0004` },
    },
  });
  // Progress (4.875 - 0.5) / 7 = 0.625 of the estimate consumed: 31 of 50 tokens.
  expect(failed.progress).toBe(0.625);
  expect(failed.tokens).toEqual({ charged: ESTIMATE, refunded: 19 });
  expect(await balance()).toBe(before - 31);
  expectOk(await api('POST', `/v1/scenario_runs/${run.id}/resume`), 202);
});

test('scenario_invalid fails at provisioning with param scenarios, and is not resumable', async () => {
  const { api, create, get, advance } = setup();
  const run = await create({
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'scenario_invalid' }] } },
  });
  await advance(10);
  expect(await get(run.id)).toMatchObject({
    status: 'failed',
    phase: 'provisioning',
    episodes: { done: 0, total: 20 },
    completed_at: at(1),
    error: { code: 'scenario_invalid', resumable: false, param: 'scenarios' },
  });
  const res = await api('POST', `/v1/scenario_runs/${run.id}/resume`);
  expectApiError(res, 409, 'not_resumable');
});

test('interrupted fails at the phase it names and is resumable', async () => {
  const { api, create, get, advance } = setup();
  const run = await create({
    ...BODY,
    options: { emulator: { outcomes: [{ fail: 'interrupted', at: 'aggregating' }] } },
  });
  await advance(10);
  expect(await get(run.id)).toMatchObject({
    status: 'failed',
    phase: 'aggregating',
    episodes: { done: 20, total: 20 },
    error: {
      code: 'interrupted',
      resumable: true,
      param: null,
      details: { service_code: 'interrupted' },
    },
  });
  expectOk(await api('POST', `/v1/scenario_runs/${run.id}/resume`), 202);
});

test("an outcome plan naming another kind's failure code or phase answers 400 naming the field", async () => {
  const { emu } = setup();
  const plan = (outcomes: unknown[]) => ({ ...BODY, options: { emulator: { outcomes } } });
  expectApiError(
    await post(emu, plan([{ fail: 'spec_invalid' }])),
    400,
    'parameter_invalid',
    'options.emulator.outcomes.0.fail',
  );
  expectApiError(
    await post(emu, plan([{ succeed: {} }, { fail: 'interrupted', at: 'verifying' }])),
    400,
    'parameter_invalid',
    'options.emulator.outcomes.1.at',
  );
  expectApiError(
    await post(emu, { ...BODY, options: { emulator: { durations_s: { verifying: 1 } } } }),
    400,
    'parameter_invalid',
    'options.emulator.durations_s.verifying',
  );
});

test('durations_s moves the timeline: provisioning and each episode take what it says', async () => {
  const { create, advance } = setup();
  await create({
    policy: POLICY,
    scenarios: [PICK],
    episodes_per_scenario: 2,
    options: { emulator: { durations_s: { queue: 0, provisioning: 2, episode: 1 } } },
  });
  const moved = await advance(10);
  expect(moved.transitions.map((t: Record<string, string>) => [t.at, t.phase])).toEqual([
    [at(0), 'provisioning'],
    [at(2), 'running'],
    [at(4), 'aggregating'],
    [at(4.5), 'packaging'],
    [at(5), 'packaging'],
  ]);
});

test('a missing or unknown policy answers 400 parameter_invalid policy', async () => {
  const { emu } = setup();
  expectApiError(await post(emu, { scenarios: [PICK] }), 400, 'parameter_invalid', 'policy');
  expectApiError(
    await post(emu, { ...BODY, policy: 'pol_nope' }),
    400,
    'parameter_invalid',
    'policy',
  );
});

test('scenarios must be 1 to 20 ids, each known and listed once, named by index', async () => {
  const { emu } = setup();
  const bad = async (scenarios: unknown, param: string) =>
    expectApiError(await post(emu, { policy: POLICY, scenarios }), 400, 'parameter_invalid', param);
  await bad(undefined, 'scenarios');
  await bad([], 'scenarios');
  await bad(
    Array.from({ length: 21 }, (_, i) => `scn_${i}`),
    'scenarios',
  );
  await bad([PICK, 7], 'scenarios.1');
  await bad([PICK, 'scn_nope'], 'scenarios.1');
  await bad([PICK, PUSH, PICK], 'scenarios.2');
});

test("an account's own scenario runs, reporting its task", async () => {
  const { emu, create, get, advance } = setup();
  const own = await emu.api('POST', '/v1/scenarios', {
    body: { robot: 'franka_panda', task: 'open_drawer' },
  });
  expectOk(own, 201);
  const run = await create({ policy: POLICY, scenarios: [own.json.id, PICK] });
  await advance(10);
  const { result } = await get(run.id);
  expect(
    result.scenarios.map((s: { scenario: string; task: string }) => [s.scenario, s.task]),
  ).toEqual([
    [own.json.id, 'open_drawer'],
    [PICK, 'pick_place'],
  ]);
});

test('episodes_per_scenario is an integer 1 to 200', async () => {
  const { emu, create } = setup();
  for (const value of [0, 201, 2.5, '10'])
    expectApiError(
      await post(emu, { ...BODY, episodes_per_scenario: value }),
      400,
      'parameter_invalid',
      'episodes_per_scenario',
    );
  const run = await create({ ...BODY, episodes_per_scenario: 200 });
  expect(run.episodes).toEqual({ done: 0, total: 400 });
  expect(run.tokens.charged).toBe(10 + 2 * 400);
});

test('an unknown hardware_tier answers 400 hardware_tier; a full tier answers 429 capacity_exceeded', async () => {
  const { emu, create } = setup();
  expectApiError(
    await post(emu, { ...BODY, hardware_tier: 'tpu-v9' }),
    400,
    'parameter_invalid',
    'hardware_tier',
  );
  // cpu-small runs at most 2 runs at once (fixtures/catalog.json).
  const small = { ...BODY, hardware_tier: 'cpu-small' };
  expect((await create(small)).hardware_tier).toBe('cpu-small');
  await create(small);
  const full = await post(emu, small);
  expectApiError(full, 429, 'capacity_exceeded');
  expect(full.headers.get('retry-after')).toMatch(/^\d+$/);
});

test('an unknown field, a long label or a non-object options answers 400 naming it', async () => {
  const { emu } = setup();
  expectApiError(await post(emu, { ...BODY, spec: {} }), 400, 'parameter_invalid', 'spec');
  expectApiError(
    await post(emu, { ...BODY, label: 'x'.repeat(201) }),
    400,
    'parameter_invalid',
    'label',
  );
  expectApiError(await post(emu, { ...BODY, options: 3 }), 400, 'parameter_invalid', 'options');
});
