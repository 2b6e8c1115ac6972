import { type BenchContext, control, fromRounds, KEYS_ME, type Scenario } from './context.js';
import { type LoadSpec, type LoadStats, load, seed, WARMUP_SEC } from './load.js';
import { p99Line, ratioLine } from './targets.js';

/** The baseline the resume write is compared with, measured in the same alternating rounds. */
export const RESUME_BASELINE = 'emulator GET /v1/keys/me (resume baseline)';
export const RESUME = 'emulator POST /v1/evaluations/{id}/resume (failed to queued)';
export const RESUME_EMPTY_JSON =
  'emulator POST /v1/evaluations/{id}/resume, body {} (failed to queued)';
/** Issue 26: a real resume at least this fraction of keys/me's requests/s. */
export const RESUME_TARGET = 0.15;
/** Issue 36 item 11: the same with the `{}` JSON body many SDKs send on every POST. */
export const RESUME_EMPTY_JSON_TARGET = 0.12;
/** Issue 26: the write's p99 at most this many ms. */
export const WRITE_P99_MS = 50;

/** First guess of the resume rate (requests/s), before one was measured. */
const RESUME_ESTIMATE_RPS = 10_000;
/** Fresh runs seeded for a load run: this many times the last measured rate, plus a margin. */
const POOL_HEADROOM = 2;

/**
 * An account for the writes: every resume charges tokens, which would drain the default
 * account's balance within a run, and a 402 is not the path measured.
 */
const WRITER = 'acct_benchwrites';

async function writerAccount(ctx: BenchContext): Promise<Record<string, string>> {
  const { key } = await control<{ key: { secret: string } }>(ctx.emulator, 'POST', '/accounts', {
    id: WRITER,
    name: 'bench writes',
    token_balance: 1_000_000_000_000,
    clock: { mode: 'manual' },
  });
  return { authorization: `Bearer ${key.secret}` };
}

/** `count` failed evaluations on the writer account, each resumable once. */
function seedFailedRuns(ctx: BenchContext, count: number): Promise<string[]> {
  const body = { spec: { path: 'bench/spec.yaml', name: 'bench' }, status: 'failed' };
  const path = `/_control/accounts/${WRITER}/evaluations`;
  return seed(ctx.emulator, { method: 'POST', path, body: JSON.stringify(body) }, count);
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
    const codes = JSON.stringify(stats.statusCodes);
    throw new Error(
      `${ids.length} seeded runs ran out at ${Math.round(stats.rps)} req/s: ${codes}`,
    );
  }
  return { stats, rate: Math.max(stats.total / spec.durationSec, rate / POOL_HEADROOM) };
}

/**
 * keys/me, then the resume write (a failed run back to `queued`, with its charge, log, event and
 * answer), then the same with `{}` and `Content-Type: application/json`, round after round; each
 * round's ratios are taken against the keys/me of that round.
 */
export function resumeWrites(): Scenario {
  return {
    name: 'resume write (without a body, and with {}) against keys/me, alternating',
    async run(ctx) {
      const auth = await writerAccount(ctx);
      const keysMe: LoadSpec = { ...ctx.load, server: ctx.emulator, requests: [KEYS_ME] };
      const resume: LoadSpec = {
        ...keysMe,
        requests: [{ method: 'POST', path: '/v1/evaluations/{id}/resume', headers: auth }],
      };
      const withBody: LoadSpec = {
        ...resume,
        requests: [
          {
            ...resume.requests[0]!,
            headers: { ...auth, 'content-type': 'application/json' },
            body: '{}',
          },
        ],
      };
      await load({ ...keysMe, durationSec: WARMUP_SEC });
      let { rate } = await resumeRun(
        ctx,
        { ...resume, durationSec: WARMUP_SEC },
        RESUME_ESTIMATE_RPS,
      );
      await resumeRun(ctx, { ...withBody, durationSec: WARMUP_SEC }, rate);
      const baseline: LoadStats[] = [];
      const writes: LoadStats[] = [];
      const writesWithBody: LoadStats[] = [];
      for (let i = 0; i < ctx.rounds; i++) {
        baseline.push(await load(keysMe));
        // Each round's runs add to the world: the two resumes take turns at going first. Both
        // pools are sized by the faster of the two; on a shared machine either may be the one.
        const order = i % 2 === 0 ? [resume, withBody] : [withBody, resume];
        const rates: number[] = [];
        for (const spec of order) {
          const measured = await resumeRun(ctx, spec, rate);
          (spec === resume ? writes : writesWithBody).push(measured.stats);
          rates.push(measured.rate);
        }
        rate = Math.max(...rates);
      }
      return [
        fromRounds(RESUME_BASELINE, baseline),
        fromRounds(RESUME, writes),
        fromRounds(RESUME_EMPTY_JSON, writesWithBody),
      ];
    },
    targets: (rows) => [
      ratioLine(rows, {
        label: 'resume write / keys/me',
        measured: RESUME,
        baseline: RESUME_BASELINE,
        atLeast: RESUME_TARGET,
      }),
      p99Line(rows, RESUME, WRITE_P99_MS),
      ratioLine(rows, {
        label: 'resume write with {} / keys/me',
        measured: RESUME_EMPTY_JSON,
        baseline: RESUME_BASELINE,
        atLeast: RESUME_EMPTY_JSON_TARGET,
      }),
      p99Line(rows, RESUME_EMPTY_JSON, WRITE_P99_MS),
    ],
  };
}
