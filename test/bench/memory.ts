/**
 * Issue 12 item 4: the emulator's RSS after a mixed load (mixed-load.ts) of BENCH_MEMORY_SEC
 * seconds (default 60) at 10 connections, side by side with the floor (memory-floor.mjs: bare
 * Hono + @hono/zod-openapi, one route). Both run in child processes started as users start the
 * package, `node dist/main.js` (no tsx): the bench's own process holds autocannon and the
 * in-process emulator, so its RSS says nothing. RSS is read from /proc (Linux only) after a few
 * idle seconds; a preloaded probe (memory-probe.mjs) reports `process.memoryUsage()` beside it.
 * BENCH_MEMORY_ARGS adds flags to the emulator's command line (e.g. `--db /tmp/world.db`); the
 * children inherit the environment, so NODE_OPTIONS reaches both servers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledPackage } from './compiled-package.js';
import {
  type BenchContext,
  positiveFromEnv,
  type Scenario,
  type ScenarioResult,
} from './context.js';
import { load } from './load.js';
import { mixedLoad } from './mixed-load.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MB = 1024 * 1024;
/** Issue 12 item 4: the emulator's RSS after the load, at most this many MB. */
export const RSS_TARGET_MB = 160;
export const MEMORY_EMULATOR = 'memory: emulator after mixed load';
export const MEMORY_FLOOR = 'memory: floor (Hono + zod-openapi) after keys/me load';
/** Seconds without load before RSS is read: what the server settles to, not a spike. */
const IDLE_SEC = 3;
/** The floor's load: long enough for its RSS to level off. */
const FLOOR_MAX_SEC = 15;

interface Child {
  url: string;
  /** VmRSS and VmHWM (peak) in MB, from /proc; undefined off Linux. */
  rss(): { now: number; peak: number } | undefined;
  usage(): Promise<NodeJS.MemoryUsage>;
  stop(): void;
}

/** Starts `node --import <probe> <args>` and waits for its `listening on <url>` line. */
function startChild(args: string[]): Promise<Child> {
  const probe = new URL('./memory-probe.mjs', import.meta.url).href;
  const child: ChildProcess = spawn(process.execPath, ['--import', probe, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const stop = () => void child.kill('SIGKILL');
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ url, rss: () => rssOf(child.pid!), usage: () => usageOf(child), stop });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited ${code}: ${out}`)));
  });
}

function rssOf(pid: number): { now: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

function usageOf(child: ChildProcess): Promise<NodeJS.MemoryUsage> {
  return new Promise((resolve) => {
    child.once('message', (m: { usage: NodeJS.MemoryUsage }) => resolve(m.usage));
    child.send('usage');
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** RSS after an idle moment, with the peak and the probe's split of it. */
async function settled(child: Child): Promise<{ rssMb?: number; notes: string }> {
  await sleep(IDLE_SEC * 1000);
  const rss = child.rss();
  const u = await child.usage();
  const split =
    `heap ${mb(u.heapUsed)} of ${mb(u.heapTotal)}, external ${mb(u.external)} ` +
    `(buffers ${mb(u.arrayBuffers)}), native rest ${mb(u.rss - u.heapTotal - u.external)}`;
  if (!rss) return { notes: `RSS not measured (no /proc); ${split}` };
  return {
    rssMb: rss.now,
    notes: `RSS ${Math.round(rss.now)} MB (peak ${Math.round(rss.peak)}); ${split}`,
  };
}

/** The floor under keys/me load, then the emulator under the mixed load, one after the other. */
export function memory(): Scenario {
  return {
    name: 'memory: RSS after mixed load, emulator and floor in child processes',
    async setup() {},
    async run(ctx: BenchContext): Promise<ScenarioResult[]> {
      const seconds = positiveFromEnv('BENCH_MEMORY_SEC', 60);
      const { connections } = ctx.load;
      const compiled = compiledPackage();
      const started: Child[] = [];
      try {
        const floor = await startChild([
          fileURLToPath(new URL('./memory-floor.mjs', import.meta.url)),
        ]);
        started.push(floor);
        const floorSec = Math.min(seconds, FLOOR_MAX_SEC);
        const f = await load({
          url: floor.url,
          method: 'GET',
          path: '/v1/keys/me',
          connections,
          durationSec: floorSec,
          pipelining: 1,
        });
        const floorRss = await settled(floor);
        floor.stop();

        const extra = (process.env.BENCH_MEMORY_ARGS ?? '').split(' ').filter(Boolean);
        const emulator = await startChild([
          compiled.main,
          '--port',
          '0',
          '--clock',
          'manual',
          ...extra,
        ]);
        started.push(emulator);
        const t0 = performance.now();
        const s = await mixedLoad(emulator.url, connections, seconds);
        const elapsed = (performance.now() - t0) / 1000;
        const emuRss = await settled(emulator);
        const held =
          `${extra.length ? `flags ${extra.join(' ')}; ` : ''}${s.requests} requests in ${seconds} s (${s.accountsCreated} accounts, ${s.runsCreated} runs created, ` +
          `${mb(s.archiveBytes)} of archives downloaded); ${emuRss.notes}; ${compiled.source}` +
          (s.samples.length ? `; unexpected: ${s.samples.join(' | ')}` : '');
        return [
          {
            name: MEMORY_FLOOR,
            rps: f.rps,
            non2xx: f.non2xx,
            errors: f.errors + f.timeouts,
            ...(floorRss.rssMb === undefined ? {} : { rssMb: floorRss.rssMb }),
            notes: `${Math.round(f.total)} requests in ${floorSec} s; ${floorRss.notes}`,
          },
          {
            name: MEMORY_EMULATOR,
            rps: s.requests / elapsed,
            non2xx: s.unexpected,
            errors: s.errors,
            ...(emuRss.rssMb === undefined ? {} : { rssMb: emuRss.rssMb }),
            notes: held,
          },
        ];
      } finally {
        for (const child of started) child.stop();
        compiled.cleanup();
      }
    },
  };
}

/** The line run.ts prints: both RSS figures and the target. Nothing when the scenario did not run. */
export function memoryLine(results: Map<string, ScenarioResult>): string {
  const emu = results.get(MEMORY_EMULATOR);
  const floor = results.get(MEMORY_FLOOR);
  if (!emu) return '';
  if (emu.rssMb === undefined) return `memory: RSS not measured (Linux /proc only)`;
  const met = emu.rssMb <= RSS_TARGET_MB ? 'met' : 'NOT met';
  const floorMb = floor?.rssMb === undefined ? '?' : Math.round(floor.rssMb);
  return (
    `memory: emulator RSS after mixed load ${Math.round(emu.rssMb)} MB, floor ${floorMb} MB ` +
    `(target <= ${RSS_TARGET_MB} MB: ${met})`
  );
}
