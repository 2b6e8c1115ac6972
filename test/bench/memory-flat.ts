/**
 * Issue 26: a load that creates nothing (keys/me and every error path of error-paths.ts, the
 * faulted ones included) for BENCH_FLAT_SEC seconds (default 300) after a warm-up keeps the
 * emulator's RSS flat. RSS is read every second; the growth is the median of the last five
 * readings less the median of the first five.
 */
import { KEYS_ME, median, positiveFromEnv, type Scenario, verdict } from './context.js';
import { ERROR_PATHS, scopedSecret } from './error-paths.js';
import { type LoadStats, load } from './load.js';
import { memoryEmulator, memoryFlags, rssMb, split } from './memory.js';

export const FLAT = 'memory: emulator under a load that creates nothing';
/** Issue 26 says "flat"; this is how flat. */
export const FLAT_GROWTH_MB = 10;
const READINGS = 5;

export function flatMemory(): Scenario {
  let figures: { seconds: number; warmSec: number; startMb: number; endMb: number } | undefined;
  return {
    name: 'memory: RSS under a load that creates nothing',
    async run(ctx) {
      const seconds = positiveFromEnv('BENCH_FLAT_SEC', 300);
      const warmSec = Math.min(30, Math.max(5, Math.round(seconds / 10)));
      const emulator = await memoryEmulator(ctx);
      try {
        const secret = await scopedSecret(emulator);
        const requests = [KEYS_ME, ...ERROR_PATHS.map((p) => p.request(secret))];
        const spec = { ...ctx.load, server: emulator, requests };
        await load({ ...spec, durationSec: warmSec });
        const readings: number[] = [];
        const timer = setInterval(() => {
          const mb = rssMb(emulator);
          if (mb !== undefined) readings.push(mb);
        }, 1000);
        let stats: LoadStats;
        try {
          stats = await load({ ...spec, durationSec: seconds });
        } finally {
          clearInterval(timer);
        }
        const notes = `${memoryFlags()}${await split(emulator)}`;
        if (readings.length >= 2 * READINGS) {
          const startMb = median(readings.slice(0, READINGS));
          const endMb = median(readings.slice(-READINGS));
          figures = { seconds, warmSec, startMb, endMb };
        }
        return [
          {
            name: FLAT,
            rps: stats.rps,
            p99Ms: stats.p99Ms,
            ...(stats.cpuUsPerReq === undefined ? {} : { cpuUsPerReq: stats.cpuUsPerReq }),
            non2xx: stats.non2xx,
            errors: stats.errors + stats.timeouts,
            ...(figures ? { rssMb: figures.endMb } : {}),
            expectedStatuses: [200, ...ERROR_PATHS.map((p) => p.status)],
            rounds: [stats],
            notes: `${stats.total} requests in ${seconds} s after a ${warmSec} s warm-up; ${notes}`,
          },
        ];
      } finally {
        await emulator.stop();
      }
    },
    targets: () => {
      if (!figures) return [`${FLAT}: RSS not measured (Linux /proc only, or too short a load)`];
      const { seconds, warmSec, startMb, endMb } = figures;
      const growth = endMb - startMb;
      return [
        `memory, load that creates nothing: RSS ${Math.round(startMb)} MB after a ${warmSec} s ` +
          `warm-up, ${Math.round(endMb)} MB after ${seconds} s more, growth ${growth.toFixed(1)} MB ` +
          `(target <= ${FLAT_GROWTH_MB} MB: ${verdict(growth <= FLAT_GROWTH_MB)})`,
      ];
    },
  };
}
