/**
 * `npm run bench`: the targets of issue 26, each measured against its baseline in the same run.
 * The emulator (the compiled package, `node dist/main.js`) and the floor (floor.mjs) run as child
 * processes pinned to core 0; this process, the load generator (autocannon, 50 connections),
 * is pinned to core 1. Prints a table, then one line per target ending in `met` or `NOT met`.
 * Exits 1 if any scenario saw answers other than it expects (2xx; an error path its one status)
 * or errors, whatever the targets.
 * Env: BENCH_DURATION (seconds per measured run, default 5), BENCH_ROUNDS (alternating rounds,
 * default 3), BENCH_ONLY (run only scenarios whose name contains it), BENCH_FLAT_SEC (seconds of
 * the load that creates nothing, default 300), BENCH_MIXED_RUNS (runs the mixed load creates,
 * default 40,000), BENCH_COLD_ROUNDS (default 7), BENCH_COLD_DIST, BENCH_MEMORY_ARGS.
 */
import os from 'node:os';
import { compiledPackage } from './compiled-package.js';
import {
  AUTH,
  type BenchContext,
  control,
  positiveFromEnv,
  type ScenarioResult,
} from './context.js';
import { pinCores } from './pinning.js';
import { table } from './report.js';
import { scenarios } from './scenarios.js';
import { type ServerProcess, startEmulator, startFloor } from './server-process.js';

const CONNECTIONS = 50;

async function main(): Promise<number> {
  const pinning = pinCores();
  const durationSec = positiveFromEnv('BENCH_DURATION', 5);
  const rounds = positiveFromEnv('BENCH_ROUNDS', 3, 'integer');
  const only = process.env.BENCH_ONLY;
  const chosen = scenarios().filter((s) => !only || s.name.includes(only));
  const pkg = compiledPackage();
  const servers: ServerProcess[] = [];
  try {
    const emulator = await startEmulator(pinning, pkg.main);
    servers.push(emulator);
    // The floor sends the emulator's own keys/me bytes.
    const body = await keysMe(emulator);
    const floor = await startFloor(pinning, body);
    servers.push(floor);
    if ((await keysMe(floor)) !== body) throw new Error('the floor does not answer the same body');
    const ctx: BenchContext = {
      pinning,
      main: pkg.main,
      emulator,
      floor,
      load: { connections: CONNECTIONS, durationSec },
      rounds,
    };
    console.log(
      `svc-emulator bench: node ${process.version}, ${os.cpus().length} CPUs; ${pinning.summary}; ` +
        `${CONNECTIONS} connections, ${durationSec} s per run after a 1 s warm-up, ` +
        `${rounds} alternating rounds; keys/me body ${Buffer.byteLength(body)} B from both; ` +
        `emulator ${pkg.source}`,
    );
    const rows = new Map<string, ScenarioResult>();
    const lines: string[] = [];
    let failed = 0;
    for (const scenario of chosen) {
      process.stderr.write(`running: ${scenario.name}\n`);
      // Each scenario starts from the loaded scenario, whatever the one before left behind.
      await control(emulator, 'POST', '/reset');
      // A scenario that throws is said and counted; the others still run and print their figures.
      let results: ScenarioResult[];
      try {
        results = await scenario.run(ctx);
      } catch (err) {
        console.error(`FAIL ${scenario.name}:`, err);
        lines.push(`${scenario.name}: FAILED (${(err as Error).message})`);
        failed++;
        continue;
      }
      for (const row of results) rows.set(row.name, row);
      lines.push(...scenario.targets(new Map(results.map((r) => [r.name, r]))));
    }
    console.log(`\n${table([...rows.values()])}\n`);
    for (const line of lines) console.log(line);
    return failures([...rows.values()]) || (failed > 0 ? 1 : 0);
  } finally {
    for (const server of servers) await server.stop();
    pkg.cleanup();
  }
}

/** The body of `GET /v1/keys/me` with the default key; throws unless 200. */
async function keysMe(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.url}/v1/keys/me`, { headers: AUTH });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /v1/keys/me: ${res.status} ${text}`);
  return text;
}

/** Answers with a status other than the row's expected ones (2xx unless it names them). */
function unexpected(r: ScenarioResult): number {
  if (r.expectedStatuses === undefined) return r.non2xx;
  const expected = r.expectedStatuses.map(String);
  return (r.rounds ?? []).reduce(
    (n, s) =>
      n +
      Object.entries(s.statusCodes).reduce(
        (m, [code, c]) => m + (expected.includes(code) ? 0 : c),
        0,
      ),
    0,
  );
}

/** Prints each row that saw unexpected answers or errors; answers the exit code. */
function failures(results: ScenarioResult[]): number {
  const bad = results.filter((r) => unexpected(r) > 0 || r.errors > 0);
  for (const r of bad) {
    const codes = (r.rounds ?? []).map((s) => JSON.stringify(s.statusCodes)).join(' ');
    const wanted = r.expectedStatuses ? `not ${r.expectedStatuses.join('/')}` : 'non-2xx';
    console.error(
      `FAIL ${r.name}: ${unexpected(r)} ${wanted}, ${r.errors} errors` +
        (codes ? `; status codes ${codes}` : ''),
    );
  }
  return bad.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);
