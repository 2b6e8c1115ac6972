/**
 * Issue 36 item 1: the big advance stalls no other account. Account A holds 50 evaluations of
 * 10,000 episodes that all end at one instant and advances its clock 3 hours (the archives are
 * built before it answers); meanwhile account B calls `GET /v1/keys/me` 5 ms after each answer
 * with Node's fetch (its keep-alive pool), as an SDK's poller does.
 * Targets: B's worst call at most 50 ms, its p99 at most 20 ms, no call failed.
 * The emulator and, while it polls, the bench's own process run on every core (the settle's
 * CPU-heavy work is in worker threads; B's load is light, some 200 calls a second).
 */
import { availableParallelism } from 'node:os';
import {
  type BenchContext,
  control,
  type Scenario,
  type ScenarioResult,
  verdict,
} from './context.js';
import { seed } from './load.js';
import { onAllCores } from './pinning.js';
import { type ServerProcess, startEmulator } from './server-process.js';

export const BIG_ADVANCE =
  "another account's keys/me every 5 ms (fetch) during a 50 x 10,000-episode advance";
export const WORST_MS = 50;
export const P99_MS = 20;
const RUNS = 50;
const EVERY_MS = 5;

/** What `POST /_control/accounts` answers, as far as this scenario reads it. */
interface Created {
  account: { id: string };
  key: { secret: string };
}

interface Calls {
  latencies: number[];
  failures: string[];
}

/** B's keys/me, 5 ms after each answer, until `until` settles (as an SDK's poller calls). */
async function pollUntil(server: ServerProcess, secret: string, until: Promise<unknown>) {
  const calls: Calls = { latencies: [], failures: [] };
  let done = false;
  // Polls until `until` ends, however it ends: its failure is its caller's to tell.
  const stop = () => {
    done = true;
  };
  until.then(stop, stop);
  while (!done) {
    const started = performance.now();
    try {
      const res = await fetch(`${server.url}/v1/keys/me`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) calls.failures.push(String(res.status));
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      calls.failures.push(cause?.code ?? String(err));
    }
    calls.latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
  return calls;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function bigAdvance(ctx: BenchContext): Promise<ScenarioResult> {
  // The emulator, and this process while it polls, on every core (a child of this process
  // would otherwise inherit its one core).
  const all = ['taskset', '-c', `0-${availableParallelism() - 1}`];
  const server = await startEmulator(
    { ...ctx.pinning, prefix: ctx.pinning.prefix.length ? all : [] },
    ctx.main,
  );
  try {
    const a = await control<Created>(server, 'POST', '/accounts', { token_balance: 100_000_000 });
    const b = await control<Created>(server, 'POST', '/accounts', {});
    const body = JSON.stringify({
      spec: { path: 's.yaml', name: 'long' },
      options: { episodes: 10_000 },
    });
    const auth = { authorization: `Bearer ${a.key.secret}` };
    await seed(server, { method: 'POST', path: '/v1/evaluations', headers: auth, body }, RUNS);
    // B's pool holds a warm connection before the advance starts.
    await pollUntil(server, b.key.secret, new Promise((resolve) => setTimeout(resolve, 500)));
    const started = performance.now();
    const advance = control<{ transitions: { to: string }[] }>(
      server,
      'POST',
      `/accounts/${a.account.id}/clock/advance`,
      {
        seconds: 10_800,
      },
    );
    const calls = await onAllCores(ctx.pinning, () => pollUntil(server, b.key.secret, advance));
    const advanced = await advance;
    const ms = performance.now() - started;
    const succeeded = advanced.transitions.filter((t) => t.to === 'succeeded');
    const sorted = [...calls.latencies].sort((x, y) => x - y);
    const worst = sorted.at(-1) ?? 0;
    const failed = calls.failures.length;
    return {
      name: BIG_ADVANCE,
      p99Ms: percentile(sorted, 99),
      worstMs: worst,
      ms,
      non2xx: calls.failures.filter((f) => /^\d+$/.test(f)).length,
      errors: calls.failures.filter((f) => !/^\d+$/.test(f)).length,
      notes:
        `worst ${worst.toFixed(1)} ms, p50 ${percentile(sorted, 50).toFixed(1)} ms of ` +
        `${calls.latencies.length} calls, ${failed} failed${failed ? ` (${[...new Set(calls.failures)].join(', ')})` : ''}; ` +
        `${succeeded.length} runs succeeded in an advance of ${Math.round(ms)} ms`,
    };
  } finally {
    await server.stop();
  }
}

export function bigAdvanceScenario(): Scenario {
  return {
    name: 'isolation: big advance',
    async run(ctx) {
      return [await bigAdvance(ctx)];
    },
    targets(rows) {
      const r = rows.get(BIG_ADVANCE);
      if (r?.p99Ms === undefined) return [`${BIG_ADVANCE}: not measured`];
      const worst = r.worstMs ?? Number.NaN;
      const failed = r.non2xx + r.errors;
      return [
        `worst ${BIG_ADVANCE}: ${worst.toFixed(1)} ms (target <= ${WORST_MS} ms: ${verdict(worst <= WORST_MS)})`,
        `p99 ${BIG_ADVANCE}: ${r.p99Ms.toFixed(1)} ms (target <= ${P99_MS} ms: ${verdict(r.p99Ms <= P99_MS)})`,
        `failed calls ${BIG_ADVANCE}: ${failed} (target 0: ${verdict(failed === 0)}; the advance took ${Math.round(r.ms ?? 0)} ms)`,
      ];
    },
  };
}
