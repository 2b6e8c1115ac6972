/**
 * World snapshots in the control API (inferred, DESIGN.md section 8): save the world or one
 * account, restore it, list, delete, download and load back; bad names, unknown names, files of
 * another version or changed ones answer the error envelope.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../../../test/helpers.js';
import { SCHEMA_VERSION } from '../../core/sqlite/migrate.js';
import { buildWorld, COLLECTIONS, LIMITED, SPEC } from './snapshot-world.test-support.js';

type Emu = ReturnType<typeof testEmulator>;

const dir = mkdtempSync(join(tmpdir(), 'snapshots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctl = (emu: Emu, method: string, path: string, body?: unknown) =>
  emu.api(method, `/_control${path}`, { secret: null, body });

/** What a client sees of the world: runs of every kind, keys, clocks, faults, endpoints. */
async function view(emu: Emu) {
  const seen: Record<string, unknown> = {};
  for (const c of COLLECTIONS) seen[c] = (await emu.api('GET', `/v1/${c}`)).json;
  seen.endpoints = (await emu.api('GET', '/v1/webhook_endpoints')).json;
  seen.limited = (await emu.api('GET', '/v1/keys/me', { secret: LIMITED.secret })).status;
  seen.account = (await ctl(emu, 'GET', `/accounts/${DEFAULT_ACCOUNT}`)).json;
  seen.limitedClock = (await ctl(emu, 'GET', `/accounts/${LIMITED.id}/clock`)).json;
  seen.faults = (await ctl(emu, 'GET', '/faults')).json;
  return seen;
}

async function worldEmulator(options = {}) {
  const emu = testEmulator({ scenario: 'every-kind', webhooks: false, ...options });
  const ids = await buildWorld(emu.app.request);
  return { emu, ids };
}

test('a restore brings back runs of every kind, keys, clocks, faults and endpoints', async () => {
  const { emu } = await worldEmulator();
  const saved = await ctl(emu, 'POST', '/snapshots', { name: 'base' });
  expect(saved.status).toBe(201);
  expect(saved.json).toMatchObject({
    name: 'base',
    object: 'snapshot',
    scope: 'world',
    account: null,
  });
  expect(saved.json.counts).toMatchObject({ accounts: 2, runs: 9, fault_rules: 2 });
  const before = await view(emu);
  // Change everything the view shows.
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 3600 });
  await emu.api('POST', '/v1/evaluations', { body: { spec: SPEC } });
  await emu.control('DELETE', '/faults');
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'later',
    scopes: ['usage:read'],
    secret: 'svc_test_made_after_save',
  });
  await emu.control('POST', '/accounts', { id: 'acct_after' });
  // Used once, so the emulator remembers the key behind the secret: the restore must forget it.
  expect((await emu.api('GET', '/v1/keys/me', { secret: 'svc_test_made_after_save' })).status).toBe(
    200,
  );
  expect(await view(emu)).not.toEqual(before);
  const restored = await ctl(emu, 'POST', '/snapshots/base/restore');
  expect(restored.status).toBe(200);
  expect(restored.headers.get('server-timing')).toMatch(/^restore;dur=\d+\.\d\d$/);
  expect(await view(emu)).toEqual(before);
  expect((await emu.api('GET', '/v1/keys/me', { secret: 'svc_test_made_after_save' })).status).toBe(
    401,
  );
  expectError(
    await ctl(emu, 'GET', '/accounts/acct_after'),
    404,
    'resource_not_found',
    'account_id',
  );
  emu.emulator.close();
});

test('a running clock comes back at the instant it showed when saved, in its mode', async () => {
  const emu = testEmulator();
  const nowOf = async () =>
    Date.parse((await emu.control('GET', `/accounts/${DEFAULT_ACCOUNT}/clock`)).now);
  await emu.control('PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, { mode: 'scaled:2' });
  const before = await nowOf();
  await emu.control('POST', '/snapshots', { name: 'running' });
  const moved = (await nowOf()) + 86_400_000;
  await emu.control('PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, {
    now: new Date(moved).toISOString(),
  });
  await emu.control('POST', '/snapshots/running/restore');
  const clock = await emu.control('GET', `/accounts/${DEFAULT_ACCOUNT}/clock`);
  expect(clock.mode).toBe('scaled:2');
  // Back near the saved instant, a day before where it was moved, and running on from there.
  expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(before);
  expect(Date.parse(clock.now)).toBeLessThan(moved);
  emu.emulator.close();
});

test("an account's snapshot restores that account only; the others keep what they did", async () => {
  const { emu } = await worldEmulator();
  await emu.control('POST', '/snapshots', { name: 'default-only', account: DEFAULT_ACCOUNT });
  const listed = (await emu.control('GET', '/snapshots')).data[0];
  expect(listed).toMatchObject({ scope: 'account', account: DEFAULT_ACCOUNT });
  expect(listed.counts.accounts).toBe(1);
  const mine = await view(emu);
  await emu.api('POST', '/v1/evaluations', { body: { spec: SPEC, label: 'gone' } });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 600 });
  await emu.control('PUT', `/accounts/${LIMITED.id}/clock`, { now: '2027-01-01T00:00:00Z' });
  const other = await emu.control('POST', '/accounts', { id: 'acct_other' });
  await emu.control('POST', '/snapshots/default-only/restore');
  const after = await view(emu);
  for (const c of COLLECTIONS) expect(after[c]).toEqual(mine[c]);
  expect(after.account).toEqual(mine.account);
  expect(after.limitedClock).toMatchObject({ now: '2027-01-01T00:00:00.000Z' });
  const otherKey = { secret: other.key.secret };
  expect((await emu.api('GET', '/v1/keys/me', otherKey)).status).toBe(200);
  // Its journal is back as it was: the call made since is not in it.
  const requests = (await emu.api('GET', '/v1/requests?limit=100')).json.data;
  expect(requests.some((r: { path: string }) => r.path === '/v1/evaluations')).toBe(true);
  expect(requests.filter((r: { method: string }) => r.method === 'POST')).toHaveLength(1);
  emu.emulator.close();
});

test('list, delete, and the errors of bad and unknown names', async () => {
  const emu = testEmulator();
  await emu.control('POST', '/snapshots', { name: 'one' });
  await emu.control('POST', '/snapshots', { name: 'two.v2' });
  // A name saved again replaces its snapshot, and moves to the end of the list.
  await emu.control('POST', '/snapshots', { name: 'one' });
  const list = (await ctl(emu, 'GET', '/snapshots')).json;
  expect(list.object).toBe('list');
  expect(list.data.map((s: { name: string }) => s.name)).toEqual(['two.v2', 'one']);
  // The list makes no file: `bytes` is known once one was downloaded.
  expect(list.data[0].bytes).toBeNull();
  expect(list.data[0].stored_bytes).toBeGreaterThan(8192);
  expect(list.stored_bytes).toBeGreaterThanOrEqual(
    list.data[0].stored_bytes + list.data[1].stored_bytes,
  );
  expect(list.limits).toEqual({ snapshots: 100, stored_bytes: 1024 * 1024 * 1024 });
  const file = await ctl(emu, 'GET', '/snapshots/two.v2/download');
  const listed = (await ctl(emu, 'GET', '/snapshots')).json.data[0];
  expect(listed.bytes).toBe(Buffer.byteLength(file.text));
  expect(list.data[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect((await ctl(emu, 'DELETE', '/snapshots/one')).json).toEqual({ name: 'one', deleted: true });
  expectError(await ctl(emu, 'DELETE', '/snapshots/one'), 404, 'resource_not_found', 'name');
  expectError(await ctl(emu, 'POST', '/snapshots/nope/restore'), 404, 'resource_not_found', 'name');
  expectError(await ctl(emu, 'GET', '/snapshots/nope/download'), 404, 'resource_not_found', 'name');
  for (const name of ['', 'has space', '-lead', 'x'.repeat(65), 7]) {
    const res = await ctl(emu, 'POST', '/snapshots', { name });
    expectError(res, 400, 'parameter_invalid', 'name');
  }
  expectError(
    await ctl(emu, 'POST', '/snapshots/bad%20name/restore'),
    400,
    'parameter_invalid',
    'name',
  );
  const unknown = await ctl(emu, 'POST', '/snapshots', { name: 'a', account: 'acct_nope' });
  expectError(unknown, 404, 'resource_not_found', 'account');
  const extra = await ctl(emu, 'POST', '/snapshots', { name: 'a', scope: 'world' });
  expectError(extra, 400, 'parameter_invalid', 'scope');
  emu.emulator.close();
});

test('a downloaded file is JSON with a file name, and loads back under a name', async () => {
  const { emu } = await worldEmulator();
  await emu.control('POST', '/snapshots', { name: 'base' });
  const res = await ctl(emu, 'GET', '/snapshots/base/download');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="base.snapshot.json"');
  expect(res.json).toMatchObject({
    format: 'svc-emulator-snapshot',
    name: 'base',
    scope: 'world',
    seed: '0',
    sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
  });
  // A key's secret is kept as its digest, as the database keeps it.
  expect(res.text).not.toContain(LIMITED.secret);
  const before = await view(emu);
  await emu.control('POST', '/reset');
  const loaded = await ctl(emu, 'POST', '/snapshots', { name: 'copy', snapshot: res.json });
  expect(loaded.status).toBe(201);
  expect(loaded.json).toMatchObject({ name: 'copy', scope: 'world', counts: { runs: 9 } });
  await emu.control('POST', '/snapshots/copy/restore');
  expect(await view(emu)).toEqual(before);
  emu.emulator.close();
});

test('a file of another version, changed, cut, of another seed or not a snapshot answers 400', async () => {
  const emu = testEmulator();
  await emu.control('POST', '/snapshots', { name: 'base' });
  const file = (await ctl(emu, 'GET', '/snapshots/base/download')).json;
  const load = (snapshot: unknown, extra: Record<string, unknown> = {}) =>
    ctl(emu, 'POST', '/snapshots', { name: 'up', snapshot, ...extra });
  /** The message of the 400 naming `snapshot` that loading `snapshot` answers. */
  const refused = async (snapshot: unknown) =>
    expectError(await load(snapshot), 400, 'parameter_invalid', 'snapshot').message as string;
  expect(await refused({ ...file, emulator_version: '0.0.9' })).toBe(
    `This snapshot was saved by svc-emulator 0.0.9 (schema version ${SCHEMA_VERSION}); this emulator is ${file.emulator_version} (schema version ${SCHEMA_VERSION}) and loads only snapshots saved by ${file.emulator_version}.`,
  );
  expect(await refused({ ...file, schema_version: 99 })).toContain('(schema version 99)');
  const changed = structuredClone(file);
  changed.world.tables.accounts.rows[0][1] = 'Renamed';
  expect(await refused(changed)).toMatch(/^The snapshot file is corrupt: .*sha256/);
  expect(await refused({ ...file, world: { tables: file.world.tables } })).toMatch(/corrupt/);
  expect(await refused({ ...file, seed: '9' })).toMatch(/saved with seed '9'.*--seed 9/);
  expect(await refused({ hello: 'world' })).toMatch(/not an svc-emulator snapshot/);
  // Rows the tables refuse, in a file whose digest matches them: refused too, never a 500.
  const forged = structuredClone(file);
  forged.world.tables.accounts.rows[0][1] = null;
  forged.sha256 = createHash('sha256').update(JSON.stringify(forged.world)).digest('hex');
  expect(await refused(forged)).toBe(
    'The snapshot file is corrupt: table accounts, column name, row 0: Invalid input: expected string, received null.',
  );
  const both = await load(file, { account: DEFAULT_ACCOUNT });
  expectError(both, 400, 'parameter_invalid', 'account');
  expect((await emu.control('GET', '/snapshots')).data).toHaveLength(1);
  emu.emulator.close();
});

test('with a --db file, the restored fault rules and journal are what a restart reads', async () => {
  const db = join(dir, 'world.db');
  const emu = testEmulator({ db });
  await emu.control('POST', '/faults', { respond: { status: 502 }, times: 3 });
  await emu.api('GET', '/v1/keys/me');
  await emu.control('POST', '/snapshots', { name: 'base' });
  await emu.control('DELETE', '/faults');
  await emu.control('DELETE', '/requests');
  await emu.control('POST', '/snapshots/base/restore');
  emu.emulator.close();
  const again = testEmulator({ db });
  const faults = (await again.control('GET', '/faults')).data;
  expect(faults).toMatchObject([{ hits: 1, remaining: 2 }]);
  expect((await again.control('GET', '/requests')).data).toHaveLength(1);
  // Snapshots live in the process: a restart has none.
  expect((await again.control('GET', '/snapshots')).data).toEqual([]);
  again.emulator.close();
});

test("an account's snapshot whose ids another account took since answers 400, applying nothing", async () => {
  const emu = testEmulator();
  const run = { kind: 'augmentation', id: 'aug_0000000000000000000000C1A5', status: 'failed' };
  const seed = { ...run, dataset: 'ds_01KA0000000000000000PANDA1', config: { episode_count: 1 } };
  await emu.control('POST', '/accounts', { id: 'acct_first' });
  await emu.control('POST', '/accounts/acct_first/runs', seed);
  await emu.control('POST', '/snapshots', { name: 'first', account: 'acct_first' });
  await emu.control('POST', '/reset');
  await emu.control('POST', '/accounts', { id: 'acct_second' });
  await emu.control('POST', '/accounts/acct_second/runs', seed);
  const res = await ctl(emu, 'POST', '/snapshots/first/restore');
  const error = expectError(res, 400, 'parameter_invalid', 'name');
  expect(error.message).toMatch(/account 'acct_first' holds an id or key secret another account/);
  expectError(
    await ctl(emu, 'GET', '/accounts/acct_first'),
    404,
    'resource_not_found',
    'account_id',
  );
  expect((await ctl(emu, 'GET', '/accounts/acct_second')).status).toBe(200);
  emu.emulator.close();
});
