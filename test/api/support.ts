/**
 * Assertions and seeds shared by the HTTP tests of test/api and test/control. Built on
 * test/helpers.ts; kept here because those tests may only add files under their own folders.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { expectError, type testEmulator } from '../helpers.js';

/** `req_` + a 26-character Crockford base32 ULID (DESIGN.md section 3). */
export const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Where every account of the default scenario starts its virtual clock. */
export const T0 = '2026-01-01T00:00:00.000Z';

/** The origin `app.request()` answers at, as used in `links`. */
export const BASE = 'http://localhost';

/** A product or control call as `testEmulator().api()` answers it. */
export type Res = Awaited<ReturnType<ReturnType<typeof testEmulator>['api']>>;

/**
 * A success: the status, and the headers every response carries (API document sections 2.1 and
 * 9.3): `Service-Version` naming the version that served it and a `req_` request id.
 */
export function expectOk(res: Res, status: number, version = '2026-09-27'): void {
  if (res.status !== status) {
    throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.json)}`);
  }
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('service-version')).toBe(version);
  expect(res.headers.get('x-request-id')).toMatch(REQUEST_ID);
}

/** The standard error envelope (helpers' `expectError`) plus the exact served version. */
export function expectApiError(
  res: Res,
  status: number,
  code: string,
  param: string | null = null,
  version = '2026-09-27',
) {
  const error = expectError(res, status, code, param);
  expect(res.headers.get('service-version')).toBe(version);
  return error;
}

/** A deterministic 64-hex digest standing in for a file's sha256. */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A file entry as the control API takes it. */
export function file(path: string, bytes = 10) {
  return { path, bytes, sha256: digest(path) };
}

/** The minimal SDK spec of a seeded evaluation. */
export const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };
