import { AUTH, type BenchContext, control, fromRounds, type Scenario } from './context.js';
import { P99_CONNECTIONS } from './error-paths.js';
import { type LoadSpec, type LoadStats, load, WARMUP_SEC } from './load.js';

/** The baseline the resume write is compared with, measured in the same alternating rounds. */
export const RESUME_BASELINE = 'emulator GET /v1/keys/me (resume baseline)';
export const RESUME = 'emulator POST /v1/evaluations/{id}/resume (failed to queued)';
/** Issue 12 item 2: a real resume at least this fraction of keys/me's requests/s. */
export const RESUME_TARGET = 0.25;
export const P99_RESUME = `emulator POST resume (failed to queued) at ${P99_CONNECTIONS} connections`;

/** First guess of the resume rate (requests/s), before one was measured. */
const RESUME_ESTIMATE_RPS = 4000;
/** Fresh runs seeded for a load run: this many times the last measured rate, plus a margin. */
const POOL_HEADROOM = 2;

/**
 * An account for the writes: every resume charges tokens, which would drain the default
 * account's balance within a run, and a 402 is not the path measured.
 */
const WRITER = 'acct_benchwrites';

async function writerAccount(ctx: BenchContext): Promise<Record<string, string>> {
  const { key } = await control<{ key: { secret: string } }>(ctx, 'POST', '/accounts', {
    id: WRITER,
    name: 'bench writes',
    token_balance: 1_000_000_000_000,
    clock: { mode: 'manual' },
  });
  return { authorization: `Bearer ${key.secret}` };
}

/** `count` failed evaluations on the writer account, each resumable once. */
async function seedFailedRuns(ctx: BenchContext, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const run = await control(ctx, 'POST', `/accounts/${WRITER}/evaluations`, {
      spec: { path: 'bench/spec.yaml', name: `bench-${i}` },
      status: 'failed',
    });
    ids.push(run.id);
  }
  return ids;
}

/**
 * One load run of resumes: a resume turns a failed run `queued` and resuming it again is 409, so
 * each request takes its own run, seeded (untimed) just before for `rate` requests/s. Answers the
 * stats and the rate to size the next pool with; a pool that runs dry fails the scenario.
 */
async function resumeRun(
  ctx: BenchContext,
  spec: LoadSpec,
  rate: number,
): Promise<{ stats: LoadStats; rate: number }> {
  const ids = await seedFailedRuns(ctx, Math.ceil(rate * POOL_HEADROOM * spec.durationSec) + 200);
  const stats = await load({ ...spec, ids });
  if (stats.idsExhausted) {
    throw new Error(`${ids.length} seeded runs ran out at ${Math.round(stats.rps)} req/s`);
  }
  return { stats, rate: Math.max(stats.total / spec.durationSec, rate / POOL_HEADROOM) };
}

function resumeSpec(
  ctx: BenchContext,
  connections: number,
  headers: Record<string, string>,
): LoadSpec {
  return {
    ...ctx.load,
    connections,
    url: ctx.emulatorUrl,
    method: 'POST',
    path: '/v1/evaluations/{id}/resume',
    headers,
  };
}

/**
 * Issue 12 item 2: keys/me, then the resume write (a failed run back to `queued`, with its
 * charge, log, event and answer), round after round; each round's ratio is taken against the
 * keys/me of that round.
 */
export function resumeWrites(): Scenario {
  let auth: Record<string, string> = {};
  return {
    name: 'resume write against keys/me, alternating',
    async setup(ctx) {
      auth = await writerAccount(ctx);
    },
    async run(ctx) {
      const keysMe: LoadSpec = {
        ...ctx.load,
        url: ctx.emulatorUrl,
        method: 'GET',
        path: '/v1/keys/me',
        headers: AUTH,
      };
      const resume = resumeSpec(ctx, ctx.load.connections, auth);
      await load({ ...keysMe, durationSec: WARMUP_SEC });
      let { rate } = await resumeRun(
        ctx,
        { ...resume, durationSec: WARMUP_SEC },
        RESUME_ESTIMATE_RPS,
      );
      const baseline: LoadStats[] = [];
      const writes: LoadStats[] = [];
      for (let i = 0; i < ctx.rounds; i++) {
        baseline.push(await load(keysMe));
        const measured = await resumeRun(ctx, resume, rate);
        writes.push(measured.stats);
        rate = measured.rate;
      }
      return [fromRounds(RESUME_BASELINE, baseline), fromRounds(RESUME, writes)];
    },
  };
}

/** Issue 12 item 3: the p99 of the resume write at {@link P99_CONNECTIONS} connections. */
export function resumeTail(): Scenario {
  let auth: Record<string, string> = {};
  return {
    name: `p99 of the resume write at ${P99_CONNECTIONS} connections`,
    async setup(ctx) {
      auth = await writerAccount(ctx);
    },
    async run(ctx) {
      const spec = resumeSpec(ctx, P99_CONNECTIONS, auth);
      let { rate } = await resumeRun(
        ctx,
        { ...spec, durationSec: WARMUP_SEC },
        RESUME_ESTIMATE_RPS,
      );
      const rounds: LoadStats[] = [];
      for (let i = 0; i < ctx.rounds; i++) {
        const measured = await resumeRun(ctx, spec, rate);
        rounds.push(measured.stats);
        rate = measured.rate;
      }
      return fromRounds(P99_RESUME, rounds);
    },
  };
}
