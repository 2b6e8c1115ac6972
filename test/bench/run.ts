/**
 * `npm run bench`: the emulator and a bare Hono floor server in this process, each loaded with
 * autocannon (in a worker thread) on loopback. Prints a table and the keys/me : floor ratio.
 * Exits 1 if any scenario saw non-2xx answers or errors, whatever the ratio.
 * Env: BENCH_DURATION (seconds per measured run, default 5).
 */
import os from 'node:os';
import { createEmulator } from '../../src/emulator.js';
import { AUTH, type BenchContext, control, type ScenarioResult } from './context.js';
import { table } from './report.js';
import { RATIO, scenarios } from './scenarios.js';
import { type Listening, listen, sameSizeBody, startFloor } from './servers.js';

function durationFromEnv(): number {
  const raw = process.env.BENCH_DURATION ?? '5';
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new Error(`BENCH_DURATION must be a positive number of seconds, got '${raw}'`);
  }
  return seconds;
}

async function main(): Promise<number> {
  const durationSec = durationFromEnv();
  const emulator = createEmulator({ seed: '0', clock: 'manual' });
  const servers: Listening[] = [];
  try {
    const api = await listen(emulator.app.fetch);
    servers.push(api);

    const res = await fetch(`${api.url}/v1/keys/me`, { headers: AUTH });
    const sample = await res.text();
    if (res.status !== 200) throw new Error(`GET /v1/keys/me: ${res.status} ${sample}`);
    const floorBody = sameSizeBody(JSON.parse(sample), Buffer.byteLength(sample));
    const sizes = [Buffer.byteLength(sample), Buffer.byteLength(JSON.stringify(floorBody))];
    if (Math.abs(sizes[0]! - sizes[1]!) > 5) throw new Error(`floor body size off: ${sizes}`);
    const floor = await startFloor(floorBody);
    servers.push(floor);

    const ctx: BenchContext = {
      emulator,
      emulatorUrl: api.url,
      floorUrl: floor.url,
      load: { connections: 10, durationSec, pipelining: 1 },
      results: new Map(),
    };
    console.log(
      `svc-emulator bench: node ${process.version}, ${os.cpus().length} CPUs, ` +
        `${ctx.load.connections} connections, ${durationSec}s per run after a 1s warm-up, ` +
        `pipelining ${ctx.load.pipelining}; body ${sizes[0]} B (emulator) / ${sizes[1]} B (floor)`,
    );

    for (const scenario of scenarios()) {
      process.stderr.write(`running: ${scenario.name}\n`);
      // Each scenario starts from the loaded scenario, whatever the one before left behind.
      await control(ctx, 'POST', '/reset');
      await scenario.setup(ctx);
      ctx.results.set(scenario.name, await scenario.run(ctx));
    }

    const results = [...ctx.results.values()];
    console.log(`\n${table(results)}\n`);
    for (const line of ratioLines(ctx.results)) console.log(line);
    return verdict(results);
  } finally {
    for (const server of servers.reverse()) await server.close();
    emulator.close();
  }
}

function ratioLines(results: Map<string, ScenarioResult>): string[] {
  const emu = results.get(RATIO.emulator);
  const floor = results.get(RATIO.floor);
  if (!emu?.rps || !floor?.rps) return ['keys/me / floor requests/s: not measured'];
  const ratio = emu.rps / floor.rps;
  const met = ratio >= RATIO.target ? 'met' : 'NOT met';
  const lines = [
    `keys/me / floor requests/s: ${ratio.toFixed(2)} (target >= ${RATIO.target.toFixed(2)}: ${met})`,
  ];
  if (emu.cpuUsPerReq && floor.cpuUsPerReq) {
    lines.push(
      `floor / keys/me server CPU per request: ${(floor.cpuUsPerReq / emu.cpuUsPerReq).toFixed(2)} ` +
        `(${Math.round(floor.cpuUsPerReq)} us vs ${Math.round(emu.cpuUsPerReq)} us; informative, ` +
        'steadier than requests/s when loopback wake-ups are noisy)',
    );
  }
  return lines;
}

function verdict(results: ScenarioResult[]): number {
  const bad = results.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of bad) {
    const codes = r.stats ? ` status codes ${JSON.stringify(r.stats.statusCodes)}` : '';
    console.error(`FAIL ${r.name}: ${r.non2xx} non-2xx, ${r.errors} errors;${codes}`);
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
