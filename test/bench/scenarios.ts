import { coldStartScenario } from './cold-start.js';
import {
  AUTH,
  type BenchContext,
  control,
  DEFAULT_ACCOUNT,
  fromRounds,
  fromStats,
  type Scenario,
  type ScenarioResult,
} from './context.js';
import { ERROR_BASELINE, ERROR_PATHS, ERROR_TARGET, errorPaths, tails } from './error-paths.js';
import { type LoadSpec, type LoadStats, load, WARMUP_SEC, warmThenLoad } from './load.js';
import { memory } from './memory.js';
import { RESUME, RESUME_BASELINE, RESUME_TARGET, resumeTail, resumeWrites } from './writes.js';

const FLOOR = 'floor GET /floor';
const KEYS_ME = 'emulator GET /v1/keys/me';

/**
 * The floor and `GET /v1/keys/me`, each warmed up once, then measured in alternating rounds
 * (floor, keys/me, floor, keys/me, ...): load from other processes on a shared machine then
 * weighs on both alike, and the ratio is taken per round (see run.ts).
 */
function floorAndKeysMe(): Scenario {
  return {
    name: 'floor and keys/me, alternating',
    async setup() {},
    async run(ctx) {
      const get = { ...ctx.load, method: 'GET' as const };
      const floor: LoadSpec = { ...get, url: ctx.floorUrl, path: '/floor' };
      const keysMe: LoadSpec = { ...get, url: ctx.emulatorUrl, path: '/v1/keys/me', headers: AUTH };
      await load({ ...floor, durationSec: WARMUP_SEC });
      await load({ ...keysMe, durationSec: WARMUP_SEC });
      const floorRounds: LoadStats[] = [];
      const keysMeRounds: LoadStats[] = [];
      for (let i = 0; i < ctx.rounds; i++) {
        floorRounds.push(await load(floor));
        keysMeRounds.push(await load(keysMe));
      }
      return [fromRounds(FLOOR, floorRounds), fromRounds(KEYS_ME, keysMeRounds)];
    },
  };
}

/** A plain GET, warmed up then measured. */
function getScenario(
  name: string,
  target: (ctx: BenchContext) => { url: string; path: string },
  headers: Record<string, string> = {},
  setup: (ctx: BenchContext) => Promise<void> = async () => {},
): Scenario {
  return {
    name,
    setup,
    async run(ctx) {
      const stats = await warmThenLoad({ ...ctx.load, ...target(ctx), method: 'GET', headers });
      return fromStats(name, stats);
    },
  };
}

function twinFiles(): Scenario {
  let twinId = '';
  return getScenario(
    'emulator GET /v1/twins/{id}/files?limit=100',
    (ctx) => ({ url: ctx.emulatorUrl, path: `/v1/twins/${twinId}/files?limit=100` }),
    AUTH,
    async (ctx) => {
      const twin = await control(ctx, 'POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {
        status: 'succeeded',
        generate_files: 250,
      });
      twinId = twin.id;
    },
  );
}

/** A control API call over the socket, as a test harness makes it; throws unless 2xx. */
async function controlOverHttp<T>(ctx: BenchContext, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${ctx.emulatorUrl}/_control${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /_control${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

interface Advanced {
  transitions: { resource: string; to: string }[];
}

/** Times one clock advance; checks that it took each of `ids` to `succeeded` with an archive. */
async function timedAdvance(
  ctx: BenchContext,
  name: string,
  ids: string[],
  seconds: number,
): Promise<ScenarioResult> {
  const started = performance.now();
  const advanced = await controlOverHttp<Advanced>(
    ctx,
    `/accounts/${DEFAULT_ACCOUNT}/clock/advance`,
    { seconds },
  );
  const ms = performance.now() - started;
  const succeeded = new Set(
    advanced.transitions.filter((t) => t.to === 'succeeded').map((t) => t.resource),
  );
  // What each run published (`download`): its archive may since have left the bounded cache.
  const { runs } = ctx.emulator.deps.store;
  const download = (id: string) => runs.get(DEFAULT_ACCOUNT, id)?.state.download;
  const built = ids.filter((id) => succeeded.has(id) && download(id));
  const bytes = ids.reduce((n, id) => n + (download(id)?.bytes ?? 0), 0);
  return {
    name,
    ms,
    non2xx: 0,
    errors: ids.length - built.length,
    notes:
      `${built.length}/${ids.length} succeeded with an archive, ` +
      `${advanced.transitions.length} transitions, ${Math.round(bytes / 1024)} KiB of archives`,
  };
}

/** Seeds `count` runs on the default account's manual clock, all starting now. */
async function seedRuns(ctx: BenchContext, count: number, options: object): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const run = await control(ctx, 'POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
      spec: { path: 'bench/spec.yaml', name: `bench-${i}` },
      options,
    });
    ids.push(run.id);
  }
  return ids;
}

/** Issue 3 (a): one advance takes 1,000 default runs (10 episodes, 5 virtual s) to `succeeded`. */
function advanceManyRuns(): Scenario {
  const ids: string[] = [];
  return {
    name: 'advance: 1,000 runs to succeeded',
    async setup(ctx) {
      ids.push(...(await seedRuns(ctx, 1000, {})));
    },
    run: (ctx) => timedAdvance(ctx, 'advance: 1,000 runs to succeeded', ids, 60),
  };
}

/**
 * Issue 3 (b): the advance that finishes one 1,000-episode run: its episodes, log and archive
 * (1,000 episode files), nearly all of it the archive build.
 */
function advanceBigRun(): Scenario {
  const ids: string[] = [];
  return {
    name: 'advance: one 1,000-episode run',
    async setup(ctx) {
      ids.push(...(await seedRuns(ctx, 1, { episodes: 1000 })));
    },
    // 1,000 episodes of 0.25 s plus 2.5 s of other phases.
    run: (ctx) => timedAdvance(ctx, 'advance: one 1,000-episode run', ids, 600),
  };
}

/**
 * A valid create body of each run kind, for seeding them on the clock. Training runs are one per
 * policy at a time (issue 11), so only one per catalog policy that has a dataset of its robot.
 */
const KIND_BODIES: Record<string, Record<string, unknown>[]> = {
  evaluation: [{ spec: { path: 'bench/spec.yaml', name: 'bench' } }],
  augmentation: [{ dataset: 'ds_01KA0000000000000000PANDA1', config: { episode_count: 4 } }],
  // The catalog's datasets cover two of its policies' robots.
  training_run: ['PANDA1', 'ALOHA1'].map((p) => ({
    policy: `pol_01KA0000000000000000${p}`,
    dataset: `ds_01KA0000000000000000${p}`,
  })),
  rl_run: [{ robot: 'franka_panda', task: 'pick_place' }],
  scenario_run: [
    {
      policy: 'pol_01KA0000000000000000PANDA1',
      scenarios: ['scn_builtin_pick_place', 'scn_builtin_push'],
    },
  ],
  twin: [{ dataset: 'ds_01KA0000000000000000PANDA1', episode: 0 }],
};

/**
 * Issue 11: one advance takes 1,000 runs of every registered kind, round robin, to `succeeded`
 * with their archives (target: under 2 s).
 */
export const MIXED_ADVANCE = 'advance: 1,000 runs of mixed kinds to succeeded';
/** Issue 11: the mixed-kind advance finishes in under 2 s. */
export const MIXED_ADVANCE_TARGET_MS = 2000;

function advanceMixedKinds(): Scenario {
  const ids: string[] = [];
  const name = MIXED_ADVANCE;
  return {
    name,
    async setup(ctx) {
      const { REGISTERED_KINDS } = await import('../../src/kinds/index.js');
      const queues = REGISTERED_KINDS.flatMap(({ kind }) =>
        KIND_BODIES[kind.name] ? [{ kind: kind.name, bodies: [...KIND_BODIES[kind.name]!] }] : [],
      );
      for (let i = 0; ids.length < 1000; i++) {
        const open = queues.filter((q) => q.bodies.length > 0);
        const q = open[i % open.length]!;
        const body = q.kind === 'training_run' ? q.bodies.shift()! : q.bodies[0]!;
        const run = await control(ctx, 'POST', `/accounts/${DEFAULT_ACCOUNT}/runs`, {
          kind: q.kind,
          ...body,
        });
        ids.push(run.id);
      }
    },
    run: (ctx) => timedAdvance(ctx, name, ids, 600),
  };
}

const NO_RULES = 'emulator GET /v1/keys/me, no fault rules';
const HUNDRED_RULES = 'emulator GET /v1/keys/me, 100 fault rules (none matching)';

/**
 * 100 rules that `GET /v1/keys/me` never matches, as a test suite might leave installed: 40 by
 * operation, 30 by method and route, 30 by account (another account's, so every call also looks
 * its caller up). Measured in alternating rounds against no rules (issue 4: ratio above 0.8).
 */
export function hundredRules(): { match: Record<string, string>; respond: { status: number } }[] {
  const operations = ['createEvaluation', 'resumeEvaluation', 'listTwinFiles', 'getSimRunLogs'];
  const routes = ['/v1/evaluations', '/v1/scenarios', '/v1/webhook_endpoints/{endpoint_id}'];
  return Array.from({ length: 100 }, (_, i) => {
    const match: Record<string, string> =
      i < 40
        ? { operation: operations[i % operations.length]! }
        : i < 70
          ? { method: 'POST', route: routes[i % routes.length]! }
          : { account: `acct_bench_other_${i}` };
    return { match, respond: { status: [500, 502, 503][i % 3]! } };
  });
}

type RuleInput = { match: Record<string, string>; respond: { status: number } };

const TEN_THOUSAND_RULES = 'emulator GET /v1/keys/me, 10,000 fault rules (none matching)';
const NO_RULES_10K = 'emulator GET /v1/keys/me, no fault rules (10,000-rule baseline)';

/**
 * Issue 12 item 5: 10,000 rules `GET /v1/keys/me` never matches, of every kind the index sorts
 * by: operation, method and route, another account, another key, another method alone.
 */
export function manyRules(count: number): RuleInput[] {
  const operations = ['createEvaluation', 'resumeEvaluation', 'listTwinFiles', 'getSimRunLogs'];
  const routes = ['/v1/evaluations', '/v1/scenarios', '/v1/webhook_endpoints/{endpoint_id}'];
  const kinds: ((i: number) => Record<string, string>)[] = [
    (i) => ({ operation: operations[i % operations.length]! }),
    (i) => ({ method: 'POST', route: routes[i % routes.length]! }),
    (i) => ({ account: `acct_bench_other_${i}` }),
    (i) => ({ key: `key_bench_other_${i}` }),
    (i) => ({ method: i % 2 ? 'DELETE' : 'PUT' }),
  ];
  return Array.from({ length: count }, (_, i) => ({
    match: kinds[i % kinds.length]!(i),
    respond: { status: [500, 502, 503][i % 3]! },
  }));
}

/** keys/me with no rules and with `rules` installed, in alternating rounds; checks no rule fired. */
function faultRules(
  name: string,
  rows: [without: string, withRules: string],
  rules: () => RuleInput[],
): Scenario {
  return {
    name,
    async setup() {},
    async run(ctx) {
      const keysMe: LoadSpec = {
        ...ctx.load,
        method: 'GET',
        url: ctx.emulatorUrl,
        path: '/v1/keys/me',
        headers: AUTH,
      };
      const installed = rules();
      const install = async () => {
        for (const rule of installed) await control(ctx, 'POST', '/faults', rule);
      };
      const without: LoadStats[] = [];
      const withRules: LoadStats[] = [];
      await load({ ...keysMe, durationSec: WARMUP_SEC });
      // Each arm measures the steady state: a warm-up after changing the rules lets the
      // collector finish with what installing 10,000 of them (10,000 control calls) left behind.
      const warm = () => load({ ...keysMe, durationSec: WARMUP_SEC });
      for (let i = 0; i < ctx.rounds; i++) {
        await control(ctx, 'DELETE', '/faults');
        await warm();
        without.push(await load(keysMe));
        await install();
        await warm();
        withRules.push(await load(keysMe));
      }
      const listed = ctx.emulator.deps.faults.list();
      const hits = listed.reduce((n, r) => n + r.hits, 0);
      if (listed.length !== installed.length || hits !== 0) {
        throw new Error(
          `expected ${installed.length} rules and no hits, got ${listed.length}, ${hits}`,
        );
      }
      await control(ctx, 'DELETE', '/faults');
      return [fromRounds(rows[0], without), fromRounds(rows[1], withRules)];
    },
  };
}

/** Run in order; append new scenarios at the end. */
export function scenarios(): Scenario[] {
  return [
    floorAndKeysMe(),
    twinFiles(),
    advanceManyRuns(),
    advanceBigRun(),
    faultRules(
      'keys/me with and without 100 fault rules, alternating',
      [NO_RULES, HUNDRED_RULES],
      hundredRules,
    ),
    advanceMixedKinds(),
    faultRules(
      'keys/me with and without 10,000 fault rules, alternating',
      [NO_RULES_10K, TEN_THOUSAND_RULES],
      () => manyRules(10_000),
    ),
    errorPaths(),
    tails(),
    resumeWrites(),
    resumeTail(),
    memory(),
    coldStartScenario(),
  ];
}

/**
 * Each ratio the bench prints: the measured row over its baseline, by requests/s and by server
 * CPU per request, with its target. Rows of scenarios left out by BENCH_ONLY print nothing.
 */
export const RATIOS = [
  { label: 'keys/me / floor', emulator: KEYS_ME, floor: FLOOR, target: 0.5 },
  /** Issue 4: the pipeline with 100 non-matching fault rules against none. */
  { label: '100 fault rules / none', emulator: HUNDRED_RULES, floor: NO_RULES, target: 0.8 },
  /** Issue 12 item 5: 10,000 rules cost at most 1.2x of none. */
  {
    label: '10,000 fault rules / none (cost <= 1.2x)',
    emulator: TEN_THOUSAND_RULES,
    floor: NO_RULES_10K,
    target: 1 / 1.2,
  },
  /** Issue 12 item 2: a real resume at least 0.25x keys/me. */
  {
    label: 'resume write / keys/me',
    emulator: RESUME,
    floor: RESUME_BASELINE,
    target: RESUME_TARGET,
  },
  /** Issue 12 item 1: every error answer at least 0.8x keys/me. */
  ...ERROR_PATHS.map((p) => ({
    label: `${p.name.replace(/^emulator /, '')} / keys/me`,
    emulator: p.name,
    floor: ERROR_BASELINE,
    target: ERROR_TARGET,
  })),
];
