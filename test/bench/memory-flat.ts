/**
 * Issue 26: a load that creates nothing (keys/me, every error path of error-paths.ts, the faulted
 * ones included, and the POST with `{}` of post-body.ts) for BENCH_FLAT_SEC seconds (default 300)
 * after a warm-up keeps the emulator's RSS flat. RSS is read every second; the growth is the median
 * of the last five readings less the median of the first five. Issue 36: then a fresh floor takes
 * the same load for as long, and the emulator's RSS at the end is set beside the floor's.
 */
import {
  AUTH,
  KEYS_ME,
  median,
  positiveFromEnv,
  type Scenario,
  type ScenarioResult,
  verdict,
} from './context.js';
import { ERROR_PATHS, scopedSecret } from './error-paths.js';
import { type LoadRequest, type LoadStats, load } from './load.js';
import { memoryEmulator, memoryFlags, rssMb, split } from './memory.js';
import { EMPTY_JSON_RESUME } from './post-body.js';
import { type ServerProcess, startFloor } from './server-process.js';

export const FLAT = 'memory: emulator under a load that creates nothing';
export const FLAT_FLOOR = 'memory: floor under the same load';
/** Issue 26 says "flat"; this is how flat. */
export const FLAT_GROWTH_MB = 10;
/** Issue 36 item 11: the emulator's RSS at the end at most this many times the floor's. */
export const FLAT_FLOOR_RATIO = 1.5;
const READINGS = 5;

interface Flat {
  stats: LoadStats;
  startMb?: number;
  endMb?: number;
  notes: string;
}

/** The warm-up, then the load for `seconds` with RSS read every second. */
async function flatLoad(
  ctx: { load: { connections: number } },
  server: ServerProcess,
  requests: LoadRequest[],
  seconds: number,
  warmSec: number,
): Promise<Flat> {
  const spec = { connections: ctx.load.connections, server, requests };
  await load({ ...spec, durationSec: warmSec });
  const readings: number[] = [];
  const timer = setInterval(() => {
    const mb = rssMb(server);
    if (mb !== undefined) readings.push(mb);
  }, 1000);
  let stats: LoadStats;
  try {
    stats = await load({ ...spec, durationSec: seconds });
  } finally {
    clearInterval(timer);
  }
  const notes = `${stats.total} requests in ${seconds} s after a ${warmSec} s warm-up; ${await split(server)}`;
  if (readings.length < 2 * READINGS) return { stats, notes };
  const startMb = median(readings.slice(0, READINGS));
  return { stats, startMb, endMb: median(readings.slice(-READINGS)), notes };
}

function row(name: string, flat: Flat, expectedStatuses?: number[]): ScenarioResult {
  const { stats } = flat;
  return {
    name,
    rps: stats.rps,
    p99Ms: stats.p99Ms,
    ...(stats.cpuUsPerReq === undefined ? {} : { cpuUsPerReq: stats.cpuUsPerReq }),
    non2xx: stats.non2xx,
    errors: stats.errors + stats.timeouts,
    ...(flat.endMb === undefined ? {} : { rssMb: flat.endMb }),
    ...(expectedStatuses ? { expectedStatuses } : {}),
    rounds: [stats],
    notes: flat.notes,
  };
}

export function flatMemory(): Scenario {
  let figures: { seconds: number; warmSec: number; emulator: Flat; floor?: Flat } | undefined;
  return {
    name: 'memory: RSS under a load that creates nothing',
    async run(ctx) {
      const seconds = positiveFromEnv('BENCH_FLAT_SEC', 300);
      const warmSec = Math.min(30, Math.max(5, Math.round(seconds / 10)));
      let requests: LoadRequest[];
      let keysMeBody: string;
      const emulator = await memoryEmulator(ctx);
      let measured: Flat;
      try {
        const secret = await scopedSecret(emulator);
        keysMeBody = await (await fetch(`${emulator.url}/v1/keys/me`, { headers: AUTH })).text();
        requests = [KEYS_ME, ...ERROR_PATHS.map((p) => p.request(secret)), EMPTY_JSON_RESUME];
        measured = await flatLoad(ctx, emulator, requests, seconds, warmSec);
        measured.notes = `${memoryFlags()}${measured.notes}`;
      } finally {
        await emulator.stop();
      }
      // The floor answers what it serves (keys/me, the 400, the resume's 404) and 404 the rest.
      const floor = await startFloor(ctx.pinning, keysMeBody);
      let floorFlat: Flat;
      try {
        floorFlat = await flatLoad(ctx, floor, requests, seconds, warmSec);
      } finally {
        await floor.stop();
      }
      figures = { seconds, warmSec, emulator: measured, floor: floorFlat };
      const statuses = [200, ...ERROR_PATHS.map((p) => p.status)];
      return [row(FLAT, measured, statuses), row(FLAT_FLOOR, floorFlat, [200, 400, 404])];
    },
    targets: () => {
      const { seconds, warmSec, emulator, floor } = figures ?? {};
      if (emulator?.startMb === undefined || emulator.endMb === undefined) {
        return [`${FLAT}: RSS not measured (Linux /proc only, or too short a load)`];
      }
      const growth = emulator.endMb - emulator.startMb;
      const lines = [
        `memory, load that creates nothing: RSS ${Math.round(emulator.startMb)} MB after a ` +
          `${warmSec} s warm-up, ${Math.round(emulator.endMb)} MB after ${seconds} s more, growth ` +
          `${growth.toFixed(1)} MB (target <= ${FLAT_GROWTH_MB} MB: ${verdict(growth <= FLAT_GROWTH_MB)})`,
      ];
      if (floor?.endMb === undefined) return [...lines, `${FLAT_FLOOR}: RSS not measured`];
      const ratio = emulator.endMb / floor.endMb;
      lines.push(
        `memory, load that creates nothing / floor: ${Math.round(emulator.endMb)} MB against ` +
          `${Math.round(floor.endMb)} MB, ${ratio.toFixed(2)}x (target <= ${FLAT_FLOOR_RATIO}x: ` +
          `${verdict(ratio <= FLAT_FLOOR_RATIO)})`,
      );
      return lines;
    },
  };
}
