/**
 * Issue 12 item 6: cold start to the first 200, the emulator against a floor, both started as
 * users start them: the compiled package (`node dist/main.js`) and a plain `.mjs` Hono +
 * zod-openapi server (`cold-floor.mjs`), so tsx is not counted. The time runs from spawn to the
 * first 200 of `GET /v1/keys/me` with the default key. The two alternate for BENCH_COLD_ROUNDS
 * rounds (default 7) after one unmeasured start of each; the ratio is taken per round and its
 * median printed, since this machine is shared.
 * Env: BENCH_COLD_DIST: a compiled `dist/` to start (its parent holding `package.json`,
 * `scenarios/`, `fixtures/` and `node_modules/`, as an installed package does) instead of
 * `dist/main.js` when fresh, or else `src/` compiled into a temporary package.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { compiledPackage } from './compiled-package.js';
import { AUTH, median, positiveFromEnv, type Scenario, type ScenarioResult } from './context.js';

export const COLD_EMULATOR = 'cold start to the first 200: emulator (node dist/main.js)';
export const COLD_FLOOR = 'cold start to the first 200: floor (Hono + zod-openapi, node)';
/** Issue 12 item 6: the emulator starts in at most 1.3x the floor's time. */
export const COLD_TARGET = 1.3;

const FLOOR_SCRIPT = fileURLToPath(new URL('./cold-floor.mjs', import.meta.url));
const TIMEOUT_MS = 30_000;

interface ColdStart {
  /** Spawn to the first 200. */
  ms: number;
  /** Spawn to the line that names the URL (listening). */
  listeningMs: number;
}

/** Resolves with the first URL the child prints on stdout. */
function printedUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /http:\/\/[^\s/]+:(\d+)/.exec(out)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening: ${err}`)));
  });
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

/** Spawns `node <args>`, waits for its URL, then asks keys/me until a 200; kills it. */
async function coldStart(args: string[]): Promise<ColdStart> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = await printedUrl(child);
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
  const floorRuns: ColdStart[] = [];
  const emulatorRuns: ColdStart[] = [];
  return {
    name: 'cold start to the first 200, floor and emulator alternating',
    async setup() {},
    async run() {
      const pkg = compiledPackage(process.env.BENCH_COLD_DIST);
      try {
        const floor = [FLOOR_SCRIPT];
        const emulator = [pkg.main, '--port', '0', '--host', '127.0.0.1'];
        // One unmeasured start of each: the first reads every module from disk.
        await coldStart(floor);
        await coldStart(emulator);
        for (let i = positiveFromEnv('BENCH_COLD_ROUNDS', 7, 'integer'); i > 0; i--) {
          floorRuns.push(await coldStart(floor));
          emulatorRuns.push(await coldStart(emulator));
        }
      } finally {
        pkg.cleanup();
      }
      return [row(COLD_FLOOR, floorRuns), row(COLD_EMULATOR, emulatorRuns)];
    },
  };
}

/** The ratio line: the median of the per-round emulator / floor ratios against the target. */
export function coldStartLine(results: Map<string, ScenarioResult>): string {
  const floor = results.get(COLD_FLOOR) as ColdRow | undefined;
  const emulator = results.get(COLD_EMULATOR) as ColdRow | undefined;
  // Left out by BENCH_ONLY.
  if (!floor?.coldMs || !emulator?.coldMs) return '';
  const ratios = floor.coldMs.map((ms, i) => emulator.coldMs[i]! / ms);
  const ratio = median(ratios);
  const met = ratio <= COLD_TARGET ? 'met' : 'NOT met';
  return (
    `cold start emulator / floor: ${ratio.toFixed(2)}x (target <= ${COLD_TARGET.toFixed(2)}x: ` +
    `${met}; per round ${ratios.map((r) => r.toFixed(2)).join(' / ')}; ` +
    `${Math.round(floor.ms!)} ms vs ${Math.round(emulator.ms!)} ms)`
  );
}
