/**
 * Shared by the tests of the simulated runtime (DESIGN.md section 4): an emulator bound to one
 * account, the instants of the default timeline, and real `tar` extraction of served archives.
 * Built on test/helpers.ts; kept here because these tests may only add files under test/runtime.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, testEmulator } from '../helpers.js';

/** Where every account of the default scenario starts its virtual clock. */
export const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** The timestamp `seconds` after T0 (RFC 3339 with milliseconds, DESIGN.md section 3). */
export const at = (seconds: number) => new Date(T0 + Math.round(seconds * 1000)).toISOString();

/** The origin `app.request()` answers at, as used in `links` and download URLs. */
export const BASE = 'http://localhost';

export const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };

export const PHASES = [
  'materializing',
  'planning',
  'fetching',
  'running',
  'verifying',
  'packaging',
] as const;

/** The default timeline (evaluation-plan.ts): when each phase starts, in seconds after creation. */
export const DEFAULT_PHASE_STARTS = {
  materializing: 0.5,
  planning: 1,
  fetching: 1.5,
  running: 2,
  verifying: 4.5,
  packaging: 4.8,
} as const;
export const DEFAULT_END = 5;
/** 10 + 5 x 10 episodes. */
export const DEFAULT_ESTIMATE = 60;

export const HEX64 = /^[0-9a-f]{64}$/;
export const EVAL_ID = /^eval_[0-9A-HJKMNP-TV-Z]{26}$/;

export type Emu = ReturnType<typeof testEmulator>;
export type Runtime = ReturnType<typeof bind>;

/** A fresh emulator (manual clocks) with shortcuts bound to the default account. */
export function runtime(options: EmulatorOptions = {}): Runtime {
  return bind(testEmulator(options), DEFAULT_ACCOUNT, DEFAULT_SECRET);
}

/** A new isolated account on `emu` (`POST /_control/accounts`), with shortcuts bound to it. */
export async function freshAccount(rt: { emu: Emu }, input: Record<string, unknown> = {}) {
  const created = await rt.emu.control('POST', '/accounts', input);
  return bind(rt.emu, created.account.id, created.key.secret);
}

function bind(emu: Emu, accountId: string, secret: string) {
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    emu.api(method, path, { secret, body, headers });

  /** Every body field of a run, straight from GET. */
  const get = async (id: string) => {
    const res = await call('GET', `/v1/evaluations/${id}`);
    if (res.status !== 200) throw new Error(`GET ${id}: ${res.status} ${res.text}`);
    return res.json;
  };

  return {
    emu,
    accountId,
    secret,
    call,
    get,
    /** `POST /v1/evaluations`; throws unless 201. */
    async create(body: Record<string, unknown> = { spec: SPEC }) {
      const res = await call('POST', '/v1/evaluations', body);
      if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
      return res.json;
    },
    /** `POST /_control/accounts/{id}/clock/advance {seconds}`: `{account_id, now, mode, transitions}`. */
    advance: (seconds: number) =>
      emu.control('POST', `/accounts/${accountId}/clock/advance`, { seconds }),
    /** `POST /_control/accounts/{id}/clock/advance {to}`. */
    advanceTo: (to: string) => emu.control('POST', `/accounts/${accountId}/clock/advance`, { to }),
    /** The account's `token_balance` as the control API reports it. */
    balance: async (): Promise<number> =>
      (await emu.control('GET', `/accounts/${accountId}`)).token_balance,
    /** Every log line of a run (the maximum `limit`). */
    logs: async (id: string): Promise<string[]> => {
      const res = await call('GET', `/v1/sim_runs/${id}/logs?limit=5000`);
      if (res.status !== 200) throw new Error(`logs ${id}: ${res.status} ${res.text}`);
      return res.json.lines;
    },
    /** The archive route with this account's key, as raw bytes. */
    archive: (id: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
      raw(emu, `/v1/evaluations/${id}/archive`, {
        method: init.method,
        headers: { authorization: `Bearer ${secret}`, ...init.headers },
      }),
  };
}

/** A request through `app.request()` answered as bytes, for binary routes. */
export async function raw(
  emu: Emu,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
) {
  const res = await emu.app.request(path, { method: init.method ?? 'GET', headers: init.headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes };
}

export const sha256 = (data: Uint8Array | string) =>
  createHash('sha256').update(data).digest('hex');

/** A temporary directory removed when the test ends. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-emulator-runtime-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Extracts a `.tar.gz` with the system `tar -xzf` (DESIGN.md section 1.4: real archives) and
 * answers every regular file by its path relative to the extraction directory, in byte order.
 */
export function extractArchive(bytes: Uint8Array): Map<string, Buffer> {
  const dir = tempDir();
  const file = join(dir, 'archive.tar.gz');
  const out = join(dir, 'out');
  writeFileSync(file, bytes);
  mkdirSync(out);
  execFileSync('tar', ['-xzf', file, '-C', out]);
  const files = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(out, path).split('\\').join('/'), readFileSync(path));
    }
  };
  walk(out);
  return new Map([...files].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
}

/** `tar -tvzf --numeric-owner --full-time`: one line per member, in archive order. */
export function listArchive(bytes: Uint8Array): string[] {
  const dir = tempDir();
  const file = join(dir, 'archive.tar.gz');
  writeFileSync(file, bytes);
  const env = { ...process.env, TZ: 'UTC', LC_ALL: 'C' };
  return execFileSync('tar', ['--numeric-owner', '--full-time', '-tvzf', file], { env })
    .toString('utf8')
    .trim()
    .split('\n');
}

/**
 * Canonical JSON written independently of src/core/canonical-json.ts: keys sorted by UTF-16
 * code units, recursively, no whitespace (DESIGN.md section 4 "Result").
 */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The 95% Wilson score interval, written from the textbook formula. */
export function wilson(successes: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = successes / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The links every Evaluation body carries (API document section 2.2). */
export const links = (id: string) => ({
  self: `${BASE}/v1/evaluations/${id}`,
  logs: `${BASE}/v1/sim_runs/${id}/logs`,
  files: `${BASE}/v1/sim_runs/${id}/files`,
  archive: `${BASE}/v1/evaluations/${id}/archive`,
});

/**
 * The standard error envelope (API document section 7) for any status, 416 included, which the
 * shared `expectError` does not map: `type` per DESIGN.md section 3 (4xx other than those the API
 * document names are `invalid_request_error`).
 */
export function expectEnvelope(
  res: { status: number; headers: Headers; json?: unknown; bytes?: Buffer },
  status: number,
  type: string,
  code: string,
  param: string | null = null,
) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (res.json ?? JSON.parse(res.bytes!.toString('utf8'))) as { error: unknown };
  expect(body).toEqual({
    error: {
      type,
      code,
      message: expect.any(String),
      param,
      request_id: res.headers.get('x-request-id'),
      details: null,
    },
  });
  return body.error;
}

/** A create body of each kind, as `POST /_control/accounts/{id}/runs` takes it (with `kind`). */
export { CREATE_BODIES as KIND_BODIES } from '../engine/support.js';
