import { Worker } from 'node:worker_threads';
import { exposedGc } from '../../src/idle-gc.js';
import { mainThreadCpuMs } from './cpu.js';

/**
 * A full collection of this thread's heap (the servers'), or nothing where V8's gc cannot be
 * reached: the setup before a run (seeding thousands of runs, installing 10,000 fault rules, the
 * previous run's garbage) is not what the run measures, and its garbage was collected during it.
 */
const collect = exposedGc();

/** One bounded autocannon run against a loopback server. */
export interface LoadSpec {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  method: 'GET' | 'POST';
  /** May contain `{id}` when `ids` is given. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
  pipelining: number;
  /** One id per request, in order, each sent at most once (for state-changing calls). */
  ids?: string[];
}

export interface LoadStats {
  /** Mean of the per-second request counts. */
  rps: number;
  p99Ms: number;
  total: number;
  durationSec: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** How many of `ids` were taken (the last few may never have been sent). */
  idsUsed: number;
  /** The pool ran dry and an id was sent twice; the run was stopped early. */
  idsExhausted: boolean;
  /** Server-thread CPU per completed request, in microseconds (Linux only). */
  cpuUsPerReq?: number;
}

export type LoadOutcome = { ok: true; stats: LoadStats } | { ok: false; error: string };

const WORKER = new URL('./load-worker.ts', import.meta.url).href;

/**
 * Runs autocannon in a worker thread. tsx's loader hooks do not reach workers, so the worker
 * is a tiny script that imports the TypeScript module through tsx's API.
 */
export function load(spec: LoadSpec): Promise<LoadStats> {
  collect?.();
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(WORKER)}, ${JSON.stringify(WORKER)}))`;
  const cpuBefore = mainThreadCpuMs();
  return new Promise((resolve, reject) => {
    const worker = new Worker(boot, { eval: true, workerData: spec });
    let settled = false;
    worker.once('message', (outcome: LoadOutcome) => {
      settled = true;
      void worker.terminate();
      if (!outcome.ok) return reject(new Error(`autocannon: ${outcome.error}`));
      const { stats } = outcome;
      const cpuAfter = mainThreadCpuMs();
      if (cpuBefore !== undefined && cpuAfter !== undefined && stats.total > 0) {
        stats.cpuUsPerReq = ((cpuAfter - cpuBefore) * 1000) / stats.total;
      }
      resolve(stats);
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`load worker exited with code ${code} before reporting`));
    });
  });
}

export const WARMUP_SEC = 1;

/** A 1-second unmeasured warm-up, then the measured run. */
export async function warmThenLoad(spec: LoadSpec): Promise<LoadStats> {
  await load({ ...spec, durationSec: WARMUP_SEC });
  return load(spec);
}
