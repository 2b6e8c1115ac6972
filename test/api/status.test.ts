/**
 * GET /v1/status (inferred, DESIGN.md section 3 "Inferred endpoints"; API document sections 1
 * and 5.1: the status area needs no key): served before authentication, with the usual version
 * handling, headers, faults and journal.
 */
import { expect, test } from 'vitest';
import { testEmulator } from '../helpers.js';
import { expectApiError, expectOk } from './support.js';

const AREAS = [
  'Augmentations',
  'Training runs',
  'Twins',
  'RL runs',
  'Evaluations',
  'Scenario runs',
  'Scenarios',
  'Objects and environments',
  'Catalog',
  'Operations',
  'Webhooks',
  'API keys',
  'Usage',
  'Requests',
  'Status',
];

const STATUS = {
  object: 'status',
  status: 'operational',
  components: AREAS.map((name) => ({ name, status: 'operational' })),
};

test('answers 200 without a key: every area of section 1, operational', async () => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/status', { secret: null });
  expectOk(res, 200);
  expect(res.json).toEqual(STATUS);
});

test.each([
  ['a valid key', 'svc_test_emulator_default'],
  ['an unknown key', 'svc_test_unknown'],
  ['a malformed credential', 'not-a-key'],
])('ignores the Authorization header: %s', async (_label, secret) => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/status', { secret });
  expectOk(res, 200);
  expect(res.json).toEqual(STATUS);
});

test('Service-Version is handled as everywhere: served at the asked version, 400 for others', async () => {
  const { api } = testEmulator();
  const later = await api('GET', '/v1/status', {
    secret: null,
    headers: { 'service-version': '2026-10-12' },
  });
  expectOk(later, 200, '2026-10-12');
  const bad = await api('GET', '/v1/status', {
    secret: null,
    headers: { 'service-version': '2025-01-01' },
  });
  expectApiError(bad, 400, 'unsupported_version', 'Service-Version');
});

test('with strict versions it lists 2026-09-27 only, like the other inferred operations', async () => {
  const { api } = testEmulator({ strictVersions: true });
  const res = await api('GET', '/v1/status', {
    secret: null,
    headers: { 'service-version': '2026-10-12' },
  });
  expectApiError(res, 400, 'unsupported_version', 'Service-Version');
  expectOk(await api('GET', '/v1/status', { secret: null }), 200);
});

test('X-Emulator-Fault applies to it', async () => {
  const { api } = testEmulator();
  const res = await api('GET', '/v1/status', {
    secret: null,
    headers: { 'x-emulator-fault': '429;retry-after=5' },
  });
  expectApiError(res, 429, 'rate_limit_exceeded');
  expect(res.headers.get('retry-after')).toBe('5');
});

test('fault rules match it by operation, and the journal records the calls', async () => {
  const { api, control } = testEmulator();
  await control('POST', '/faults', {
    match: { operation: 'getStatus' },
    respond: { status: 503 },
    times: 1,
  });
  expectApiError(await api('GET', '/v1/status', { secret: null }), 503, 'api_error');
  expectOk(await api('GET', '/v1/status', { secret: null }), 200);
  const journal = (await control('GET', '/requests?route=/v1/status')).data;
  expect(
    journal.map((e: Record<string, unknown>) => [e.status, e.route, e.account_id, e.key_id]),
  ).toEqual([
    [503, '/v1/status', null, null],
    [200, '/v1/status', null, null],
  ]);
});

test('other methods on /v1/status still need a key, then answer 404', async () => {
  const { api } = testEmulator();
  expectApiError(await api('POST', '/v1/status', { secret: null }), 401, 'unauthenticated');
  expectApiError(await api('POST', '/v1/status'), 404, 'resource_not_found');
});
