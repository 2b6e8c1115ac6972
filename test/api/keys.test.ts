/** GET /v1/keys/me (API document sections 2.6 and 4.2; DESIGN.md section 3 "Scopes"). */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, NO_TWINS_SECRET, testEmulator } from '../helpers.js';
import { expectApiError, expectOk, T0 } from './support.js';

const FULL_SCOPES = [
  'evaluations:write',
  'scenarios:write',
  'twins:write',
  'webhooks:write',
  'augmentations:write',
  'training_runs:write',
  'rl_runs:write',
  'scenario_runs:write',
  'usage:read',
  'requests:read',
];

describe('GET /v1/keys/me', () => {
  test('answers the api_key object of the default key', async () => {
    const { api } = testEmulator();
    const res = await api('GET', '/v1/keys/me');
    expectOk(res, 200);
    expect(res.json).toEqual({
      id: 'key_00000000000000000000000001',
      object: 'api_key',
      name: 'default',
      scopes: FULL_SCOPES,
      created_at: T0,
    });
  });

  test('answers the key of the second account for its own secret', async () => {
    const { api } = testEmulator();
    const res = await api('GET', '/v1/keys/me', { secret: NO_TWINS_SECRET });
    expectOk(res, 200);
    expect(res.json).toEqual({
      id: 'key_00000000000000000000000002',
      object: 'api_key',
      name: 'default',
      scopes: FULL_SCOPES,
      created_at: T0,
    });
  });

  test('a key made through the control API shows its own name, scopes and created_at', async () => {
    const emu = testEmulator();
    await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 3600 });
    const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
      name: 'ci-reader',
      scopes: ['evaluations:read', 'twins:read'],
    });
    const res = await emu.api('GET', '/v1/keys/me', { secret: key.secret });
    expectOk(res, 200);
    expect(res.json).toEqual({
      id: key.id,
      object: 'api_key',
      name: 'ci-reader',
      scopes: ['evaluations:read', 'twins:read'],
      created_at: '2026-01-01T01:00:00.000Z',
    });
    expect(key.id).toMatch(/^key_[0-9A-HJKMNP-TV-Z]{26}$/);
    // The secret is never part of the product API's answer.
    expect(res.text).not.toContain(key.secret);
  });

  test('needs no scope: a key with no scopes at all gets 200', async () => {
    const emu = testEmulator();
    const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
      name: 'no-scopes',
      scopes: [],
    });
    const res = await emu.api('GET', '/v1/keys/me', { secret: key.secret });
    expectOk(res, 200);
    expect(res.json).toEqual({
      id: key.id,
      object: 'api_key',
      name: 'no-scopes',
      scopes: [],
      created_at: T0,
    });
  });

  test('a revoked key answers 401 unauthenticated', async () => {
    const emu = testEmulator();
    const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
      name: 'soon-revoked',
      scopes: [],
    });
    await emu.control('POST', `/keys/${key.id}/revoke`);
    expectApiError(
      await emu.api('GET', '/v1/keys/me', { secret: key.secret }),
      401,
      'unauthenticated',
    );
  });

  test('an invalid key answers 401 unauthenticated', async () => {
    const { api } = testEmulator();
    const res = await api('GET', '/v1/keys/me', { secret: 'svc_test_emulator_default_x' });
    expectApiError(res, 401, 'unauthenticated');
  });
});
