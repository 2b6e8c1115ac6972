/**
 * Issue 26: cold start to the first 200, the emulator against the floor, both started as users
 * start them (plain `node`, on the servers' core): the compiled package (`node dist/main.js`) and
 * floor.mjs (Hono + zod-openapi), so tsx is not counted. The time runs from spawn to the first 200
 * of `GET /v1/keys/me` with the default key. The two alternate for BENCH_COLD_ROUNDS rounds
 * (default 7) after one unmeasured start of each; the ratio is taken per round and its median
 * printed, since this machine is shared.
 * Env: BENCH_COLD_DIST: a compiled `dist/` to start (its parent holding `package.json`,
 * `scenarios/`, `fixtures/` and `node_modules/`, as an installed package does) instead of the one
 * the other scenarios start.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AUTH,
  median,
  positiveFromEnv,
  type Scenario,
  type ScenarioResult,
  verdict,
} from './context.js';
import type { Pinning } from './pinning.js';
import { printedUrl } from './server-process.js';

export const COLD_EMULATOR = 'cold start to the first 200: emulator (node dist/main.js)';
export const COLD_FLOOR = 'cold start to the first 200: floor (Hono + zod-openapi, node)';
/** Issue 26: the emulator starts in at most 1.3x the floor's time. */
export const COLD_TARGET = 1.3;

const FLOOR_SCRIPT = fileURLToPath(new URL('./floor.mjs', import.meta.url));
const TIMEOUT_MS = 30_000;

interface ColdStart {
  /** Spawn to the first 200. */
  ms: number;
  /** Spawn to the line that names the URL (listening). */
  listeningMs: number;
}

/** One GET of keys/me on a fresh connection; resolves with the status, 0 on a socket error. */
function getKeysMe(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`${url}/v1/keys/me`, { headers: AUTH, agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', () => resolve(0));
    req.end();
  });
}

/** Spawns `node <args>` pinned, waits for its URL, then asks keys/me until a 200; kills it. */
async function coldStart(pinning: Pinning, args: string[]): Promise<ColdStart> {
  const started = performance.now();
  const [file, ...rest] = [...pinning.prefix, process.execPath, ...args];
  const child = spawn(file!, rest, { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = await printedUrl(child, TIMEOUT_MS);
    const listeningMs = performance.now() - started;
    while ((await getKeysMe(url)) !== 200) {
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`no 200 from ${args[0]}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { ms: performance.now() - started, listeningMs };
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

/** A table row that keeps each round's time, for the per-round ratio. */
interface ColdRow extends ScenarioResult {
  coldMs: number[];
}

function row(name: string, runs: ColdStart[]): ColdRow {
  const each = runs.map((r) => Math.round(r.ms)).join(' / ');
  const listening = Math.round(median(runs.map((r) => r.listeningMs)));
  return {
    name,
    ms: median(runs.map((r) => r.ms)),
    coldMs: runs.map((r) => r.ms),
    non2xx: 0,
    errors: 0,
    notes: `median of ${runs.length}: ${each} ms; listening after ${listening} ms (median)`,
  };
}

/** Runs cold starts of the floor and the emulator in alternating rounds. */
export function coldStartScenario(): Scenario {
  return {
    name: 'cold start to the first 200, the emulator and the floor alternating',
    async run(ctx) {
      const floorRuns: ColdStart[] = [];
      const emulatorRuns: ColdStart[] = [];
      const given = process.env.BENCH_COLD_DIST;
      const floor = [FLOOR_SCRIPT];
      const emulator = [given ? join(given, 'main.js') : ctx.main, '--port', '0'];
      // One unmeasured start of each: the first reads every module from disk.
      await coldStart(ctx.pinning, floor);
      await coldStart(ctx.pinning, emulator);
      for (let i = positiveFromEnv('BENCH_COLD_ROUNDS', 7, 'integer'); i > 0; i--) {
        floorRuns.push(await coldStart(ctx.pinning, floor));
        emulatorRuns.push(await coldStart(ctx.pinning, emulator));
      }
      return [row(COLD_FLOOR, floorRuns), row(COLD_EMULATOR, emulatorRuns)];
    },
    targets: (rows) => [coldStartLine(rows)],
  };
}

/** The ratio line: the median of the per-round emulator / floor ratios against the target. */
function coldStartLine(rows: Map<string, ScenarioResult>): string {
  const floor = rows.get(COLD_FLOOR) as ColdRow | undefined;
  const emulator = rows.get(COLD_EMULATOR) as ColdRow | undefined;
  if (!floor?.coldMs || !emulator?.coldMs) return 'cold start emulator / floor: not measured';
  const ratios = floor.coldMs.map((ms, i) => emulator.coldMs[i]! / ms);
  const ratio = median(ratios);
  return (
    `cold start emulator / floor: ${ratio.toFixed(2)}x (target <= ${COLD_TARGET.toFixed(2)}x: ` +
    `${verdict(ratio <= COLD_TARGET)}; per round ${ratios.map((r) => r.toFixed(2)).join(' / ')}; ` +
    `${Math.round(floor.ms!)} ms vs ${Math.round(emulator.ms!)} ms)`
  );
}
