/**
 * Issue 28: restoring a world of 1,000 runs takes under 10 ms of server time. One account gets
 * 1,000 runs of every kind, created through the product API and run to their end (events,
 * archives owed and built, idempotency records); the world is saved once, then restored
 * BENCH_RESTORES times (default 30). The server time is what the restore route's `Server-Timing`
 * reports (the restore itself, after any settle in progress); the round trip is printed beside it.
 */
import {
  type BenchContext,
  control,
  median,
  positiveFromEnv,
  type Scenario,
  type ScenarioResult,
  verdict,
} from './context.js';

export const RESTORE = 'snapshot restore of a 1,000-run world (server time)';
/** Issue 28: the server time of one restore, at most. */
export const RESTORE_TARGET_MS = 10;
const RUNS = 1000;

/** A create body per kind (catalog ids); one of each fits every hardware tier's capacity. */
const KINDS: [string, object][] = [
  ['evaluations', { spec: { path: 'specs/pick.yaml', name: 'bench' } }],
  ['augmentations', { dataset: 'ds_01KA0000000000000000PANDA1', config: { episode_count: 4 } }],
  [
    'training_runs',
    { policy: 'pol_01KA0000000000000000PANDA1', dataset: 'ds_01KA0000000000000000PANDA1' },
  ],
  ['twins', { dataset: 'ds_01KA0000000000000000PANDA1', episode: 1 }],
  ['rl_runs', { robot: 'franka_panda', task: 'pick_place' }],
  ['scenario_runs', { policy: 'pol_01KA0000000000000000PANDA1', scenarios: ['scn_builtin_push'] }],
];

/** 1,000 runs on a new account, one of each kind at a time, each batch run to its end. */
async function buildWorld(ctx: BenchContext): Promise<void> {
  const { account, key } = await control<{ account: { id: string }; key: { secret: string } }>(
    ctx.emulator,
    'POST',
    '/accounts',
    { features: ['twins'], token_balance: 1_000_000_000, clock: { mode: 'manual' } },
  );
  const headers = { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' };
  for (let made = 0; made < RUNS; ) {
    for (const [collection, body] of KINDS.slice(0, RUNS - made)) {
      const res = await fetch(`${ctx.emulator.url}/v1/${collection}`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': `bench-${made}` },
        body: JSON.stringify(body),
      });
      if (res.status !== 201)
        throw new Error(`POST /v1/${collection}: ${res.status} ${await res.text()}`);
      await res.body?.cancel();
      made++;
    }
    await control(ctx.emulator, 'POST', `/accounts/${account.id}/clock/advance`, { seconds: 120 });
  }
  // Reading the runs waits for the archives the advances owed.
  await fetch(`${ctx.emulator.url}/v1/evaluations?limit=1`, { headers });
}

/** One restore: the server time its `Server-Timing` reports, and the round trip, in ms. */
async function restoreOnce(ctx: BenchContext): Promise<{ server: number; roundTrip: number }> {
  const started = performance.now();
  const res = await fetch(`${ctx.emulator.url}/_control/snapshots/bench/restore`, {
    method: 'POST',
  });
  await res.text();
  const roundTrip = performance.now() - started;
  if (res.status !== 200) throw new Error(`restore: ${res.status}`);
  const dur = /restore;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1];
  if (dur === undefined) throw new Error('restore: no Server-Timing');
  return { server: Number(dur), roundTrip };
}

export function snapshotRestore(): Scenario {
  return {
    name: 'snapshot restore of a 1,000-run world',
    async run(ctx): Promise<ScenarioResult[]> {
      const rounds = positiveFromEnv('BENCH_RESTORES', 30, 'integer');
      await buildWorld(ctx);
      const saved = await control<{ counts: Record<string, number> }>(
        ctx.emulator,
        'POST',
        '/snapshots',
        { name: 'bench' },
      );
      // One unmeasured restore: the statements are prepared on the first.
      await restoreOnce(ctx);
      const times: { server: number; roundTrip: number }[] = [];
      for (let i = 0; i < rounds; i++) times.push(await restoreOnce(ctx));
      const server = times.map((t) => t.server);
      const { runs, events, accounts } = saved.counts;
      return [
        {
          name: RESTORE,
          ms: median(server),
          non2xx: 0,
          errors: 0,
          notes:
            `median of ${rounds}: server ${median(server).toFixed(2)} ms (max ` +
            `${Math.max(...server).toFixed(2)} ms), round trip ${median(times.map((t) => t.roundTrip)).toFixed(2)} ms; ` +
            `world: ${accounts} accounts, ${runs} runs, ${events} events`,
        },
      ];
    },
    targets: (rows) => {
      const row = rows.get(RESTORE);
      if (row?.ms === undefined) return [`${RESTORE}: not measured`];
      return [
        `${RESTORE}: ${row.ms.toFixed(2)} ms median (target < ${RESTORE_TARGET_MS} ms: ` +
          `${verdict(row.ms < RESTORE_TARGET_MS)})`,
      ];
    },
  };
}
