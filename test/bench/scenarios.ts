import {
  AUTH,
  type BenchContext,
  control,
  DEFAULT_ACCOUNT,
  fromStats,
  type Scenario,
} from './context.js';
import { load, WARMUP_SEC, warmThenLoad } from './load.js';

const FLOOR = 'floor GET /floor';
const KEYS_ME = 'emulator GET /v1/keys/me';

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

/** Guess of the resume rate, used only to size the warm-up's pool. */
const RESUME_ESTIMATE_RPS = 5000;
/**
 * The measured run gets this many times the warm-up's rate in fresh runs: the warm-up runs on
 * cold code, at about half the steady rate.
 */
const POOL_HEADROOM = 3;

async function seedFailedRuns(ctx: BenchContext, count: number, into: string[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const run = await control(ctx, 'POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
      spec: { path: 'bench/spec.yaml', name: `bench-${into.length}` },
      status: 'failed',
    });
    into.push(run.id);
  }
}

/**
 * A resume turns a failed run `queued`; resuming it again is 409. Each request therefore takes
 * its own pre-seeded failed run. The warm-up's rate sizes the pool for the measured run.
 */
function resume(): Scenario {
  const name = 'emulator POST /v1/evaluations/{id}/resume';
  const ids: string[] = [];
  let seedMs = 0;
  return {
    name,
    async setup(ctx) {
      const started = performance.now();
      await seedFailedRuns(ctx, Math.ceil(RESUME_ESTIMATE_RPS * WARMUP_SEC * 1.5), ids);
      seedMs = performance.now() - started;
    },
    async run(ctx) {
      const spec = {
        ...ctx.load,
        url: ctx.emulatorUrl,
        method: 'POST' as const,
        path: '/v1/evaluations/{id}/resume',
        headers: AUTH,
      };
      const warm = await load({ ...spec, durationSec: WARMUP_SEC, ids });
      const warmRate = warm.idsExhausted ? RESUME_ESTIMATE_RPS : warm.idsUsed / WARMUP_SEC;
      const left = ids.slice(warm.idsUsed);
      const needed = Math.ceil(warmRate * POOL_HEADROOM * ctx.load.durationSec) + 100;
      const started = performance.now();
      await seedFailedRuns(ctx, Math.max(0, needed - left.length), left);
      seedMs += performance.now() - started;
      const stats = await load({ ...spec, ids: left });
      const pool = `${stats.idsUsed}/${left.length} seeded runs used, seeding ${Math.round(seedMs)} ms`;
      const notes = stats.idsExhausted
        ? `SEEDED RUNS RAN OUT after ${left.length}: raise POOL_HEADROOM (${pool})`
        : pool;
      return fromStats(name, stats, notes);
    },
  };
}

/** Run in order; append new scenarios at the end. */
export function scenarios(): Scenario[] {
  return [
    getScenario(FLOOR, (ctx) => ({ url: ctx.floorUrl, path: '/floor' })),
    getScenario(KEYS_ME, (ctx) => ({ url: ctx.emulatorUrl, path: '/v1/keys/me' }), AUTH),
    twinFiles(),
    resume(),
  ];
}

export const RATIO = { emulator: KEYS_ME, floor: FLOOR, target: 0.5 };
