/**
 * Issue 36: control calls on big inputs keep no other account waiting. One emulator of its own,
 * with a scenarios folder holding a link to /dev/zero and a sparse 60 MB file, and 40 snapshots
 * of a 3,000-run world. While another account's `GET /v1/keys/me` runs at 10 connections, each
 * phase makes its calls one after another:
 * - `GET /_control/snapshots` 20 times (it built every snapshot's file: 3.3 s a call);
 * - the probe's inline load, 200 twins x `generate_files: 100000`, 20 times (35.6 s, then 500);
 * - an inline load of 300,000 empty twins (just under 1 MiB), 5 times;
 * - `GET /_control/scenarios` 20 times with the two odd files (the 60 MB one: 1.9 s);
 * - one download of a 3,000-run snapshot (a file of about 10 MB), made as it is sent.
 * Each phase makes one unmeasured call first (its code's first run). Target: the other account's
 * slowest keys/me during each phase under 50 ms.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Result } from 'autocannon';
import {
  type BenchContext,
  control,
  type Scenario,
  type ScenarioResult,
  verdict,
} from './context.js';
import { seed } from './load.js';
import { type ServerProcess, startEmulator } from './server-process.js';

export const WORST_MS = 50;
const LOAD_CHILD = fileURLToPath(new URL('./load-child.mjs', import.meta.url));
const RUNS = 3000;
const SNAPSHOTS = 40;
const BASELINE = 'nothing (the baseline)';
const PHASE = (what: string) => `another account's slowest keys/me during ${what}`;

/**
 * keys/me of `secret` at 10 connections until `work` settles; autocannon's result. The load runs
 * in a process of its own (load-child.mjs): this one uploads the 1 MB bodies, and in one event
 * loop each upload's turn held the keys/me answers meanwhile (the baseline phase, with no control
 * calls at all, reached 67 ms).
 */
function loadDuring(server: ServerProcess, secret: string, work: () => Promise<unknown>) {
  const options = {
    url: server.url,
    connections: 10,
    duration: 600,
    requests: [
      { method: 'GET', path: '/v1/keys/me', headers: { authorization: `Bearer ${secret}` } },
    ],
  };
  const child = fork(LOAD_CHILD, [JSON.stringify(options)]);
  return new Promise<Result>((resolve, reject) => {
    child.on('message', (message: 'started' | { result?: Result; error?: string }) => {
      if (message === 'started')
        // A moment of load first, so the phase's calls meet connections already open.
        setTimeout(() => {
          void work()
            .catch(reject)
            .finally(() => child.send('stop'));
        }, 500);
      else if (message.result) resolve(message.result);
      else reject(new Error(message.error));
    });
    child.once('exit', (code) => reject(new Error(`the load process exited ${code}`)));
  });
}

/** A control call that answers `status`; throws otherwise. */
async function expectStatus(
  server: ServerProcess,
  status: number,
  path: string,
  init: RequestInit,
) {
  const res = await fetch(`${server.url}/_control${path}`, init);
  await res.arrayBuffer();
  if (res.status !== status) throw new Error(`${path}: ${res.status}, expected ${status}`);
}

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** A world of 3,000 evaluations run to their end on account A, saved 40 times. */
async function world(server: ServerProcess): Promise<void> {
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
  for (let i = 0; i < SNAPSHOTS; i++)
    await control(server, 'POST', '/snapshots', { name: `s${i}` });
}

/** A phase: its name, its calls, and one call made unmeasured before it (its code's first run). */
type Phase = [string, () => Promise<void>, (() => Promise<void>)?];

/** What each phase does, one call after another. */
function phases(server: ServerProcess): Phase[] {
  const each = (n: number, call: () => Promise<void>) =>
    [
      async () => {
        for (let i = 0; i < n; i++) await call();
      },
      call,
    ] as const;
  const twins = (items: object[]) => ({
    scenario: { name: 'big', accounts: [{ id: 'acct_big', features: ['twins'], twins: items }] },
  });
  const probe = twins(Array.from({ length: 200 }, () => ({ generate_files: 100_000 })));
  const empty = twins(Array.from({ length: 300_000 }, () => ({})));
  // Each body is made into text once: stringifying 300,000 twins held this process, the load
  // generator's, for 30 to 60 ms a call, and the keys/me answers waiting meanwhile counted as slow.
  const load = (body: unknown) => {
    const init = post(body);
    return () => expectStatus(server, 400, '/scenarios/load', init);
  };
  return [
    [BASELINE, () => new Promise((resolve) => setTimeout(resolve, 3000))],
    [
      `20 lists of ${SNAPSHOTS} snapshots of a ${RUNS}-run world`,
      ...each(20, () => expectStatus(server, 200, '/snapshots', {})),
    ],
    ['20 refused loads of 200 twins x generate_files 100000', ...each(20, load(probe))],
    ['5 refused loads of 300,000 empty twins (under 1 MiB)', ...each(5, load(empty))],
    [
      '20 scenario lists (a link to /dev/zero, a 60 MB file)',
      ...each(20, () => expectStatus(server, 200, '/scenarios', {})),
    ],
    [
      `a download of a ${RUNS}-run snapshot`,
      ...each(1, () => expectStatus(server, 200, '/snapshots/s0/download', {})),
    ],
  ];
}

async function measure(ctx: BenchContext): Promise<ScenarioResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-scenarios-'));
  symlinkSync('/dev/zero', join(dir, 'zero.json'));
  writeFileSync(join(dir, 'huge.json'), '');
  truncateSync(join(dir, 'huge.json'), 60 * 1024 * 1024);
  const server = await startEmulator(ctx.pinning, ctx.main, ['--scenarios-dir', dir]);
  try {
    await world(server);
    const b = await control<{ key: { secret: string } }>(server, 'POST', '/accounts', {});
    const rows: ScenarioResult[] = [];
    for (const [what, work, warmUp] of phases(server)) {
      await warmUp?.();
      const started = performance.now();
      const result = await loadDuring(server, b.key.secret, work);
      rows.push({
        name: PHASE(what),
        p99Ms: result.latency.p99,
        ms: result.latency.max,
        non2xx: result.non2xx,
        errors: result.errors,
        notes: `max ${result.latency.max} ms, p99 ${result.latency.p99} ms over ${result.requests.total} keys/me in ${Math.round(performance.now() - started)} ms`,
      });
    }
    return rows;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function controlCalls(): Scenario {
  return {
    name: 'control calls on big inputs: another account waits',
    run: measure,
    targets(rows) {
      return [...rows.values()]
        .filter((r) => r.name.startsWith(PHASE('')))
        .map((r) =>
          r.ms === undefined
            ? `${r.name}: not measured`
            : r.name === PHASE(BASELINE)
              ? `${r.name}: ${r.ms} ms (no target: what the machine gives)`
              : `${r.name}: ${r.ms} ms (target < ${WORST_MS} ms: ${verdict(r.ms < WORST_MS)})`,
        );
    },
  };
}
