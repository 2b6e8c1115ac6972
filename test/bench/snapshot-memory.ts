/**
 * Issue 36: snapshots take no memory of the process, and deleting them gives their space back.
 * An emulator of its own (`--snapshot-limit 300 --snapshot-space 4096`) holds a world of 3,000
 * evaluations run to their end; it saves 201 snapshots, deletes 200, and saves 200 again, with
 * its RSS read after the idle collection at each step, and the space the copies take as
 * `GET /_control/snapshots` counts it (`stored_bytes`). In memory, as they were, 201 snapshots
 * took RSS from 238 to 1,820 MB, and it stayed at 1,670 MB once 200 were deleted.
 * Targets: RSS after the 201 saves at most 64 MB above the world's; after the deletes, the
 * copies take less than 2% of what they took.
 */
import { QUIET_MS } from '../../src/heap.js';
import {
  type BenchContext,
  control,
  type Scenario,
  type ScenarioResult,
  sleep,
  verdict,
} from './context.js';
import { seed } from './load.js';
import { rssMb } from './memory.js';
import { type ServerProcess, startEmulator } from './server-process.js';

export const SNAPSHOT_RSS = 'RSS over a 3,000-run world after 201 snapshots of it';
export const SNAPSHOT_GIVEN_BACK = "the snapshots' space left after 200 of 201 are deleted";
const RSS_TARGET_MB = 64;
const LEFT_TARGET = 0.02;
const RUNS = 3000;

const stored = async (server: ServerProcess) =>
  (await control<{ stored_bytes: number }>(server, 'GET', '/snapshots')).stored_bytes;

/** RSS in MB once the bin's idle collection has run (`QUIET_MS` and 2 s, src/heap.ts). */
async function settledRss(server: ServerProcess): Promise<number> {
  await sleep(QUIET_MS + 2000);
  return Math.round(rssMb(server) ?? Number.NaN);
}

async function measure(ctx: BenchContext): Promise<ScenarioResult[]> {
  const flags = ['--snapshot-limit', '300', '--snapshot-space', '4096'];
  const server = await startEmulator(ctx.pinning, ctx.main, flags);
  try {
    const a = await control<{ account: { id: string }; key: { secret: string } }>(
      server,
      'POST',
      '/accounts',
      { token_balance: 1_000_000_000 },
    );
    const body = JSON.stringify({ spec: { path: 's.yaml', name: 'bench' } });
    const headers = { authorization: `Bearer ${a.key.secret}` };
    await seed(server, { method: 'POST', path: '/v1/evaluations', headers, body }, RUNS);
    await control(server, 'POST', `/accounts/${a.account.id}/clock/advance`, { seconds: 3600 });
    const world = await settledRss(server);
    for (let i = 0; i < 201; i++) await control(server, 'POST', '/snapshots', { name: `s${i}` });
    const saved = await settledRss(server);
    const full = await stored(server);
    for (let i = 0; i < 200; i++) await control(server, 'DELETE', `/snapshots/s${i}`);
    const deleted = await settledRss(server);
    const left = await stored(server);
    for (let i = 0; i < 200; i++) await control(server, 'POST', '/snapshots', { name: `t${i}` });
    const again = await settledRss(server);
    const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;
    return [
      {
        name: SNAPSHOT_RSS,
        rssMb: saved,
        ms: saved - world,
        non2xx: 0,
        errors: 0,
        notes: `RSS ${world} MB with the world, ${saved} after 201 saves, ${deleted} after 200 deletes, ${again} after 200 saves again`,
      },
      {
        name: SNAPSHOT_GIVEN_BACK,
        ms: left / full,
        non2xx: 0,
        errors: 0,
        notes: `stored_bytes ${mb(full)} after 201 saves, ${mb(left)} after 200 deletes`,
      },
    ];
  } finally {
    await server.stop();
  }
}

export function snapshotMemory(): Scenario {
  return {
    name: 'snapshot memory: 201 snapshots of a 3,000-run world, then 200 deleted',
    run: measure,
    targets(rows) {
      const rss = rows.get(SNAPSHOT_RSS);
      const left = rows.get(SNAPSHOT_GIVEN_BACK);
      return [
        rss?.ms === undefined
          ? `${SNAPSHOT_RSS}: not measured`
          : `${SNAPSHOT_RSS}: ${rss.ms} MB more (target <= ${RSS_TARGET_MB} MB: ${verdict(rss.ms <= RSS_TARGET_MB)})`,
        left?.ms === undefined
          ? `${SNAPSHOT_GIVEN_BACK}: not measured`
          : `${SNAPSHOT_GIVEN_BACK}: ${(left.ms * 100).toFixed(2)}% (target < ${LEFT_TARGET * 100}%: ${verdict(left.ms < LEFT_TARGET)})`,
      ];
    },
  };
}
