import type { Emulator } from '../../src/emulator.js';
import type { LoadSpec, LoadStats } from './load.js';

export const DEFAULT_ACCOUNT = 'acct_00000000000000000000000001';
export const DEFAULT_SECRET = 'svc_test_emulator_default';
export const AUTH = { authorization: `Bearer ${DEFAULT_SECRET}` };

/** What every scenario gets: the running servers, the load settings and earlier results. */
export interface BenchContext {
  emulator: Emulator;
  emulatorUrl: string;
  floorUrl: string;
  /** Defaults for every load run: connections, duration, pipelining. */
  load: Pick<LoadSpec, 'connections' | 'durationSec' | 'pipelining'>;
  /** Results so far, by scenario name (ratios against an earlier scenario read them). */
  results: Map<string, ScenarioResult>;
}

/**
 * One row of the table. Load scenarios fill `rps` and `p99Ms`; timing scenarios (a clock
 * advance, an archive build) can leave them out and say what they measured in `notes`.
 */
export interface ScenarioResult {
  name: string;
  rps?: number;
  p99Ms?: number;
  /** Server-thread CPU per request (Linux only). */
  cpuUsPerReq?: number;
  non2xx: number;
  errors: number;
  notes?: string;
  /** Raw numbers, for later scenarios and debugging. */
  stats?: LoadStats;
}

/** Append new scenarios to the list in `scenarios.ts`; they run in order. */
export interface Scenario {
  name: string;
  /** Seeds whatever the run needs; not timed. */
  setup(ctx: BenchContext): Promise<void>;
  run(ctx: BenchContext): Promise<ScenarioResult>;
}

export function fromStats(name: string, stats: LoadStats, notes?: string): ScenarioResult {
  return {
    name,
    rps: stats.rps,
    p99Ms: stats.p99Ms,
    ...(stats.cpuUsPerReq === undefined ? {} : { cpuUsPerReq: stats.cpuUsPerReq }),
    non2xx: stats.non2xx,
    errors: stats.errors + stats.timeouts,
    stats,
    ...(notes === undefined ? {} : { notes }),
  };
}

/**
 * A control API call in-process (no socket); throws unless it answers 2xx. `T` is the caller's
 * word for the answer's shape: it is not checked.
 */
export async function control<T = { id: string }>(
  ctx: BenchContext,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await ctx.emulator.app.request(`/_control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
