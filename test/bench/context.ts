import type { LoadRequest, LoadStats } from './load.js';
import type { Pinning } from './pinning.js';
import type { ServerProcess } from './server-process.js';

export const DEFAULT_ACCOUNT = 'acct_00000000000000000000000001';
export const DEFAULT_SECRET = 'svc_test_emulator_default';
export const AUTH = { authorization: `Bearer ${DEFAULT_SECRET}` };
/** The read every ratio is taken against (or, for the floor, measured against). */
export const KEYS_ME: LoadRequest = { method: 'GET', path: '/v1/keys/me', headers: AUTH };

/** What every scenario gets: the running servers, the load settings and earlier results. */
export interface BenchContext {
  pinning: Pinning;
  /** The compiled emulator's entry point, for scenarios that start emulators of their own. */
  main: string;
  /** The emulator shared by the speed scenarios (reset before each scenario). */
  emulator: ServerProcess;
  /** The bare Hono + zod-openapi server answering keys/me with the emulator's bytes. */
  floor: ServerProcess;
  /** Every load run: connections and seconds (BENCH_DURATION). */
  load: { connections: number; durationSec: number };
  /** How many alternating rounds a scenario's loads get (BENCH_ROUNDS). */
  rounds: number;
}

/**
 * One row of the table. Load scenarios fill `rps` and `p99Ms`; timing and memory scenarios leave
 * them out and say what they measured in `ms`, `rssMb` and `notes`.
 */
export interface ScenarioResult {
  name: string;
  rps?: number;
  p99Ms?: number;
  /** The slowest answer, where a scenario times each call itself. */
  worstMs?: number;
  /** One operation's wall time. */
  ms?: number;
  /** A server's resident memory in MB (Linux only). */
  rssMb?: number;
  /** The server's CPU per request (Linux only). */
  cpuUsPerReq?: number;
  non2xx: number;
  errors: number;
  /** The statuses every answer must have; unset: any 2xx. */
  expectedStatuses?: number[];
  notes?: string;
  /** Each round's numbers, in order, when the row is the median of several runs. */
  rounds?: LoadStats[];
}

/**
 * A scenario measures its rows, then says which targets they meet. To add one, write it in a file
 * of its own and append it to the list in `scenarios.ts`.
 */
export interface Scenario {
  name: string;
  run(ctx: BenchContext): Promise<ScenarioResult[]>;
  /** One line per target, each ending in `met` or `NOT met`; `rows` holds this run's rows. */
  targets(rows: Map<string, ScenarioResult>): string[];
}

/** `met` or `NOT met`, as each target line says it. */
export const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** The median; for an even count, the mean of the middle two. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One row from several runs of the same load: medians of req/s, p99 and CPU; sums of failures. */
export function fromRounds(name: string, rounds: LoadStats[]): ScenarioResult {
  const cpu = rounds.map((r) => r.cpuUsPerReq).filter((v): v is number => v !== undefined);
  const busy = rounds.map((r) => r.serverBusy).filter((v): v is number => v !== undefined);
  const each = rounds.map((r) => Math.round(r.rps)).join(' / ');
  const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;
  return {
    name,
    rps: median(rounds.map((r) => r.rps)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    ...(cpu.length === rounds.length ? { cpuUsPerReq: median(cpu) } : {}),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.errors + r.timeouts, 0),
    rounds,
    notes:
      `median of ${rounds.length}: ${each} req/s; busy: ` +
      (busy.length ? `server ${percent(median(busy))}, ` : '') +
      `load generator ${percent(median(rounds.map((r) => r.loadBusy)))}`,
  };
}

/**
 * A control API call over HTTP; throws unless it answers 2xx. `T` is the caller's word for the
 * answer's shape: it is not checked.
 */
export async function control<T = { id: string }>(
  server: ServerProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${server.url}/_control${path}`, {
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
