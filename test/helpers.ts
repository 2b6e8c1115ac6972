import { expect } from 'vitest';
import type { EmulatorOptions } from '../src/emulator.js';
import { createEmulator } from '../src/tools/emulator.js';

export const DEFAULT_SECRET = 'svc_test_emulator_default';
export const NO_TWINS_SECRET = 'svc_test_emulator_no_twins';
export const DEFAULT_ACCOUNT = 'acct_00000000000000000000000001';
export const NO_TWINS_ACCOUNT = 'acct_00000000000000000000000002';

/**
 * A fresh emulator (in-memory, seed 0, manual clocks, default scenario) per test. Its settles run
 * on the event loop (`settleWorkers: { threads: 0 }`) unless `options` ask for workers: a worker
 * thread loads the source through tsx, about a second and a half of CPU per emulator, and a run
 * of 100 steps (an RL run's example body) would start one. The tests of the workers ask for them
 * (test/reliability/settle-workers.test.ts, sliced-settle, test/engine/settle-pool.test.ts).
 */
export function testEmulator(options: EmulatorOptions = {}) {
  const emulator = createEmulator({
    seed: '0',
    clock: 'manual',
    settleWorkers: { threads: 0 },
    ...options,
  });
  const { app } = emulator;

  /** A product API call with the default key unless `secret` is given (null: no key). */
  async function api(
    method: string,
    path: string,
    init: { body?: unknown; secret?: string | null; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    const secret = init.secret === undefined ? DEFAULT_SECRET : init.secret;
    if (secret !== null) headers.authorization = `Bearer ${secret}`;
    if (init.body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await app.request(path, {
      method,
      headers,
      body:
        init.body === undefined
          ? undefined
          : typeof init.body === 'string'
            ? init.body
            : JSON.stringify(init.body),
    });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
  }

  /** A control API call; throws unless it answers 2xx. */
  async function control(method: string, path: string, body?: unknown) {
    const res = await app.request(`/_control${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: any = await res.json();
    if (res.status >= 300)
      throw new Error(`control ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  return { emulator, app, api, control };
}

/**
 * Asserts the standard error envelope (API document section 7) with the headers every response
 * carries, and returns the error body.
 */
export function expectError(
  res: { status: number; headers: Headers; json: any },
  status: number,
  code: string,
  param: string | null = null,
) {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    402: 'invalid_request_error',
    403: 'permission_error',
    404: 'not_found_error',
    409: 'conflict_error',
    413: 'invalid_request_error',
    429: 'rate_limit_error',
  };
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  expect(res.headers.get('service-version')).toMatch(/^2026-(09-27|10-12)$/);
  expect(Object.keys(res.json)).toEqual(['error']);
  expect(res.json.error).toEqual({
    type: types[status] ?? 'api_error',
    code,
    message: expect.any(String),
    param,
    request_id: requestId,
    details: res.json.error.details ?? null,
  });
  return res.json.error;
}

/** The documents fetched so far, by path and options (one worker's files share them). */
const servedDocuments = new Map<string, Promise<string>>();

/**
 * The OpenAPI document an emulator with these options serves at `path`, parsed afresh for each
 * caller. It is fetched once per path and options from an emulator of their own and kept for the
 * worker's other test files: generating it takes 100 to 250 ms, and a test that only reads the
 * document needs no emulator of its own.
 * @example const doc = await servedDocument('/openapi.json', { strict: true })
 */
export async function servedDocument(
  path: '/openapi.json' | '/_control/openapi.json' = '/openapi.json',
  options: EmulatorOptions = {},
): Promise<unknown> {
  const key = JSON.stringify([path, options]);
  let text = servedDocuments.get(key);
  if (!text) {
    text = (async () => {
      const { emulator, app } = testEmulator(options);
      try {
        const res = await app.request(path);
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
        return await res.text();
      } finally {
        emulator.close();
      }
    })();
    servedDocuments.set(key, text);
  }
  return JSON.parse(await text);
}
