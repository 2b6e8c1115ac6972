/**
 * Issue 26: under a mixed load (mixed-load.ts: creates of every kind, clock advances to
 * completion, archive downloads, resumes and error paths) the emulator's RSS grows by at most
 * about 6 KB per run the world holds, at most 300 MB with 40,000 runs. The load runs until it has
 * created BENCH_MIXED_RUNS runs (default 40,000). The growth per run is taken from the RSS after
 * the first tenth of them (once the server's code and heap have warmed up) to the end; with fewer
 * than 40,000 runs the end RSS is projected to 40,000 at that growth.
 */
import { QUIET_MS } from '../../src/heap.js';
import { positiveFromEnv, type Scenario, sleep, verdict } from './context.js';
import { memoryEmulator, memoryFlags, rssMb, split } from './memory.js';
import { type MixedLoadStats, mixedLoad } from './mixed-load.js';
import type { ServerProcess } from './server-process.js';

export const MIXED = 'memory: emulator after the mixed load';
export const PER_RUN_KB = 6;
export const TOTAL_MB = 300;
export const TOTAL_RUNS = 40_000;
/** Workers of the mixed load, each one test after another, as a suite's parallel files. */
const CONNECTIONS = 10;
/**
 * Seconds without load before RSS is read: what the server settles to, not a spike (the bin
 * collects its heap once quiet for `QUIET_MS`, src/heap.ts).
 */
const IDLE_SEC = QUIET_MS / 1000 + 2;

interface Figures {
  /** Runs held at the end, and after the warm-up tenth. */
  runs: number;
  warmRuns: number;
  warmMb: number;
  endMb: number;
}

/** Adds the counts of a second load to the first's. */
function add(a: MixedLoadStats, b: MixedLoadStats): MixedLoadStats {
  return {
    requests: a.requests + b.requests,
    statuses: {},
    unexpected: a.unexpected + b.unexpected,
    errors: a.errors + b.errors,
    runsCreated: a.runsCreated + b.runsCreated,
    accountsCreated: a.accountsCreated + b.accountsCreated,
    archiveBytes: a.archiveBytes + b.archiveBytes,
    samples: [...a.samples, ...b.samples].slice(0, 5),
  };
}

/** RSS in MB (undefined off Linux) after an idle moment. */
async function settledRss(emulator: ServerProcess): Promise<number | undefined> {
  await sleep(IDLE_SEC * 1000);
  return rssMb(emulator);
}

/** The load in two parts, the first tenth and the rest, with RSS read before, between, after. */
async function measure(emulator: ServerProcess, runs: number) {
  const startMb = await settledRss(emulator);
  let t = performance.now();
  const warm = await mixedLoad(emulator.url, CONNECTIONS, Math.ceil(runs / 10));
  let loadMs = performance.now() - t;
  const warmMb = await settledRss(emulator);
  t = performance.now();
  const rest = await mixedLoad(emulator.url, CONNECTIONS, runs - warm.runsCreated);
  loadMs += performance.now() - t;
  const endMb = await settledRss(emulator);
  return { stats: add(warm, rest), warmRuns: warm.runsCreated, startMb, warmMb, endMb, loadMs };
}

export function mixedMemory(): Scenario {
  let figures: Figures | undefined;
  return {
    name: 'memory: RSS per run held after a mixed load',
    async run(ctx) {
      const runs = positiveFromEnv('BENCH_MIXED_RUNS', TOTAL_RUNS, 'integer');
      const emulator = await memoryEmulator(ctx);
      try {
        const {
          stats: s,
          warmRuns,
          startMb,
          warmMb,
          endMb,
          loadMs,
        } = await measure(emulator, runs);
        if (warmMb !== undefined && endMb !== undefined) {
          figures = { runs: s.runsCreated, warmRuns, warmMb, endMb };
        }
        const rss =
          startMb === undefined || warmMb === undefined || endMb === undefined
            ? 'RSS not measured (no /proc)'
            : `RSS ${Math.round(startMb)} MB at start, ${Math.round(warmMb)} MB after ` +
              `${warmRuns} runs, ${Math.round(endMb)} MB at the end`;
        return [
          {
            name: MIXED,
            rps: (s.requests * 1000) / loadMs,
            non2xx: s.unexpected,
            errors: s.errors,
            ...(endMb === undefined ? {} : { rssMb: endMb }),
            notes:
              `${memoryFlags()}${s.runsCreated} runs created by ${s.requests} requests in ` +
              `${Math.round(loadMs / 1000)} s (${s.accountsCreated} accounts, ` +
              `${Math.round(s.archiveBytes / 1024 / 1024)} MB of archives downloaded); ${rss}; ` +
              (await split(emulator)) +
              (s.samples.length ? `; unexpected: ${s.samples.join(' | ')}` : ''),
          },
        ];
      } finally {
        await emulator.stop();
      }
    },
    targets: () => (figures ? mixedLines(figures) : [`${MIXED}: RSS not measured (Linux only)`]),
  };
}

function mixedLines({ runs, warmRuns, warmMb, endMb }: Figures): string[] {
  const perRunKb = ((endMb - warmMb) * 1024) / Math.max(runs - warmRuns, 1);
  const held = `${runs.toLocaleString('en-US')} runs held`;
  const total = `${TOTAL_RUNS.toLocaleString('en-US')} runs`;
  const lines = [
    `memory, mixed load: RSS grew ${Math.round(endMb - warmMb)} MB from ` +
      `${warmRuns.toLocaleString('en-US')} to ${held}, ${perRunKb.toFixed(1)} KB per run ` +
      `(target <= ${PER_RUN_KB} KB per run: ${verdict(perRunKb <= PER_RUN_KB)})`,
  ];
  if (runs >= TOTAL_RUNS) {
    lines.push(
      `memory, mixed load: RSS ${Math.round(endMb)} MB with ${held} ` +
        `(target <= ${TOTAL_MB} MB with ${total}: ${verdict(endMb <= TOTAL_MB)})`,
    );
  } else {
    const projected = endMb + ((TOTAL_RUNS - runs) * perRunKb) / 1024;
    lines.push(
      `memory, mixed load: RSS ${Math.round(endMb)} MB with ${held}, projected to ${total}: ` +
        `${Math.round(projected)} MB (target <= ${TOTAL_MB} MB with ${total}: ` +
        `${verdict(projected <= TOTAL_MB)})`,
    );
  }
  return lines;
}
