/**
 * Authentication reads each key with its account by the secret's digest, remembered while the
 * database is unchanged (src/core/accounts/credentials.ts). These tests authenticate once first, then
 * check that every write to keys and accounts, by any path, is seen by the very next request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { digestSecret } from '../../src/core/sha256.js';
import { Database } from '../../src/core/sqlite/driver.js';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';
import { expectApiError, expectOk } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

/** The default scenario with the default key renamed and narrowed: same secret, other key. */
function renamedScenario(emu: Emu) {
  const scenario = structuredClone(emu.emulator.deps.scenarios.loaded);
  const key = scenario.accounts[0]!.keys![0]!;
  key.name = 'renamed';
  key.scopes = ['usage:read'];
  return scenario;
}

test('a revoked key answers 401 on the next request, after a success', async () => {
  const emu = testEmulator();
  const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'soon revoked',
    scopes: [],
  });
  expectOk(await emu.api('GET', '/v1/keys/me', { secret: key.secret }), 200);
  expectOk(await emu.api('GET', '/v1/keys/me', { secret: key.secret }), 200);
  await emu.control('POST', `/keys/${key.id}/revoke`);
  const res = await emu.api('GET', '/v1/keys/me', { secret: key.secret });
  expect(expectApiError(res, 401, 'unauthenticated').message).toContain('revoked');
});

test('loading a scenario that gives a secret another key is seen by the next request', async () => {
  const emu = testEmulator();
  const before = await emu.api('GET', '/v1/keys/me');
  expect(before.json.name).toBe('default');
  await emu.control('POST', '/scenarios/load', { scenario: renamedScenario(emu) });
  const after = await emu.api('GET', '/v1/keys/me');
  expectOk(after, 200);
  expect(after.json).toMatchObject({ name: 'renamed', scopes: ['usage:read'] });
});

test('a full reset back to the loaded scenario is seen by the next request', async () => {
  const emu = testEmulator();
  await emu.control('POST', '/scenarios/load', { scenario: renamedScenario(emu) });
  expect((await emu.api('GET', '/v1/keys/me')).json.name).toBe('renamed');
  await emu.control('POST', '/reset', { scenario: 'default' });
  expect((await emu.api('GET', '/v1/keys/me')).json.name).toBe('default');
});

test('resetting one account recreates its keys, and the next request sees the new ones', async () => {
  const emu = testEmulator();
  const extra = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'gone after reset',
    scopes: [],
  });
  expectOk(await emu.api('GET', '/v1/keys/me', { secret: extra.secret }), 200);
  expectOk(await emu.api('GET', '/v1/keys/me'), 200);
  await emu.control('POST', '/reset', { account: DEFAULT_ACCOUNT });
  // The key made after the scenario was applied is gone with the account's old rows.
  expectApiError(
    await emu.api('GET', '/v1/keys/me', { secret: extra.secret }),
    401,
    'unauthenticated',
  );
  expectOk(await emu.api('GET', '/v1/keys/me'), 200);
});

test('a key expires by its account clock after a success', async () => {
  const emu = testEmulator();
  const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'short-lived',
    scopes: [],
    expires_at: '2026-01-01T00:00:10.000Z',
  });
  expectOk(await emu.api('GET', '/v1/keys/me', { secret: key.secret }), 200);
  await emu.control('PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, {
    now: '2026-01-01T00:00:10.000Z',
  });
  const res = await emu.api('GET', '/v1/keys/me', { secret: key.secret });
  expect(expectApiError(res, 401, 'unauthenticated').message).toContain('expired');
});

test('a write straight to the api_keys table is seen by the next request', async () => {
  const emu = testEmulator();
  expectOk(await emu.api('GET', '/v1/keys/me'), 200);
  emu.emulator.deps.store.db
    .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?')
    .run('2026-01-01T00:00:00.000Z', 'key_00000000000000000000000001');
  expectApiError(await emu.api('GET', '/v1/keys/me'), 401, 'unauthenticated');
});

test('an account column written straight to the table is seen by the next request', async () => {
  const emu = testEmulator();
  const { store } = emu.emulator.deps;
  expectOk(await emu.api('GET', '/v1/twins'), 200);
  store.db.prepare("UPDATE accounts SET features = '[]' WHERE id = ?").run(DEFAULT_ACCOUNT);
  const res = await emu.api('GET', '/v1/twins');
  expect(expectApiError(res, 403, 'feature_not_enabled').details).toEqual({ feature: 'twins' });
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test('a key revoked by another connection to the database file answers 401 on the next request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'auth-writes-'));
  dirs.push(dir);
  const db = join(dir, 'emulator.db');
  const emu = testEmulator({ db });
  try {
    expectOk(await emu.api('GET', '/v1/keys/me'), 200);
    const other = new Database(db);
    other
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE secret_sha256 = ?')
      .run('2026-01-01T00:00:00.000Z', digestSecret('svc_test_emulator_default'));
    other.close();
    expectApiError(await emu.api('GET', '/v1/keys/me'), 401, 'unauthenticated');
  } finally {
    emu.emulator.close();
  }
});

test('a secret that opened no key opens the key given it later, on the next request', async () => {
  const emu = testEmulator();
  const secret = 'svc_test_not_yet_a_key_0000000001';
  // Twice: a miss is not kept either.
  for (let i = 0; i < 2; i++) {
    const res = await emu.api('GET', '/v1/keys/me', { secret });
    expect(expectApiError(res, 401, 'unauthenticated').message).toBe('Invalid API key.');
  }
  const scenario = structuredClone(emu.emulator.deps.scenarios.loaded);
  scenario.accounts[0]!.keys!.push({ name: 'given later', scopes: ['usage:read'], secret });
  await emu.control('POST', '/scenarios/load', { scenario });
  const res = await emu.api('GET', '/v1/keys/me', { secret });
  expectOk(res, 200);
  expect(res.json).toMatchObject({ name: 'given later', scopes: ['usage:read'] });
});

test('a secret that opened no key opens one written straight to the api_keys table', async () => {
  const emu = testEmulator();
  const { store } = emu.emulator.deps;
  const secret = 'svc_test_written_straight_000000001';
  expectApiError(await emu.api('GET', '/v1/keys/me', { secret }), 401, 'unauthenticated');
  store.db
    .prepare(
      `INSERT INTO api_keys (id, account_id, name, scopes, secret_sha256, created_at)
       VALUES ('key_0000000000000000000000STRT', ?, 'straight', '[]', ?, '2026-01-01T00:00:00.000Z')`,
    )
    .run(DEFAULT_ACCOUNT, digestSecret(secret));
  expectOk(await emu.api('GET', '/v1/keys/me', { secret }), 200);
});

test('a key deleted inside a transaction that rolls back opens again', async () => {
  const emu = testEmulator();
  const { store } = emu.emulator.deps;
  const digest = digestSecret('svc_test_emulator_default');
  expect(() =>
    store.tx(() => {
      store.db.prepare('DELETE FROM api_keys WHERE secret_sha256 = ?').run(digest);
      expect(store.credentials('svc_test_emulator_default')).toBeUndefined();
      throw new Error('roll back');
    }),
  ).toThrow('roll back');
  // The key is back, and its secret opens it.
  expectOk(await emu.api('GET', '/v1/keys/me'), 200);
});
