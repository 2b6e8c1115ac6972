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
  /** How many alternating rounds the floor and keys/me get (BENCH_ROUNDS). */
  rounds: number;
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
  /** What a timing scenario measured: one operation's wall time. */
  ms?: number;
  /** A server's resident memory in MB, for the memory scenario (Linux only). */
  rssMb?: number;
  /** Server-thread CPU per request (Linux only). */
  cpuUsPerReq?: number;
  non2xx: number;
  errors: number;
  /** An error-path row: every answer must have this status (and non-2xx is then expected). */
  expectedStatus?: number;
  notes?: string;
  /** Raw numbers, for later scenarios and debugging. */
  stats?: LoadStats;
  /** Each round's numbers, in order, when the row is the median of several runs. */
  rounds?: LoadStats[];
}

/** Append new scenarios to the list in `scenarios.ts`; they run in order. */
export interface Scenario {
  name: string;
  /** Seeds whatever the run needs; not timed. */
  setup(ctx: BenchContext): Promise<void>;
  /** One row, or several (scenarios that alternate servers measure each in turn). */
  run(ctx: BenchContext): Promise<ScenarioResult | ScenarioResult[]>;
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

/** The median; for an even count, the mean of the middle two. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One row from several runs of the same load: medians of req/s, p99 and CPU; sums of failures. */
export function fromRounds(name: string, rounds: LoadStats[]): ScenarioResult {
  const cpu = rounds.map((r) => r.cpuUsPerReq).filter((v): v is number => v !== undefined);
  return {
    name,
    rps: median(rounds.map((r) => r.rps)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    ...(cpu.length === rounds.length ? { cpuUsPerReq: median(cpu) } : {}),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.errors + r.timeouts, 0),
    rounds,
    notes: `median of ${rounds.length}: ${rounds.map((r) => Math.round(r.rps)).join(' / ')} req/s`,
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

/**
 * A positive number from the environment variable `name` (`fallback` when unset); throws naming
 * the variable when it is not one (or, with `integer`, not a whole one).
 * @example positiveFromEnv('BENCH_ROUNDS', 3, 'integer')
 */
export function positiveFromEnv(name: string, fallback: number, integer?: 'integer'): number {
  const raw = process.env[name] ?? String(fallback);
  const value = Number(raw);
  const ok = integer ? Number.isInteger(value) && value >= 1 : Number.isFinite(value) && value > 0;
  if (!ok) {
    const what = integer ? 'a positive integer' : 'a positive number';
    throw new Error(`${name} must be ${what}, got '${raw}'`);
  }
  return value;
}
