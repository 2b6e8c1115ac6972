/**
 * The control routes the inspector reads (issue 30): accounts, an account's keys (never their
 * secrets) and webhook endpoints (never their signing secrets), its runs of every kind with their
 * timelines, logs, files and archives, and the run kinds served.
 */
import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../helpers.js';

type Emu = ReturnType<typeof testEmulator>;
const ctl = (emu: Emu, method: string, path: string, body?: unknown) =>
  emu.api(method, `/_control${path}`, { secret: null, body });

test('GET /_control/accounts lists every account, the newest first, a page at a time', async () => {
  const emu = testEmulator();
  const { account } = await emu.control('POST', '/accounts', { name: 'newest' });
  const all = await ctl(emu, 'GET', '/accounts');
  expect(all.json.data.map((a: { name: string }) => a.name)).toEqual([
    'newest',
    'No Twins',
    'Default',
  ]);
  expect(all.json.data[0]).toEqual(account);
  const page = await ctl(emu, 'GET', `/accounts?limit=1&after=${account.id}`);
  expect(page.json).toMatchObject({ data: [{ name: 'No Twins' }], has_more: true });
  expectError(
    await ctl(emu, 'GET', '/accounts?after=acct_nope'),
    400,
    'parameter_invalid',
    'after',
  );
});

test("GET /_control/accounts/{id}/keys lists the account's keys without any secret", async () => {
  const emu = testEmulator();
  const { account, key } = await emu.control('POST', '/accounts', {});
  await emu.control('POST', `/accounts/${account.id}/keys`, {
    name: 'reader',
    scopes: ['evaluations:read'],
  });
  const res = await ctl(emu, 'GET', `/accounts/${account.id}/keys`);
  expect(res.json.data.map((k: { name: string }) => k.name)).toEqual(['default', 'reader']);
  expect(res.text).not.toContain(key.secret);
  expect(res.text).not.toContain('"secret"');
  expectError(
    await ctl(emu, 'GET', '/accounts/acct_nope/keys'),
    404,
    'resource_not_found',
    'account_id',
  );
});

test('GET /_control/webhook_endpoints lists the account endpoints without their signing secrets', async () => {
  const emu = testEmulator();
  const made = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: 'http://127.0.0.1:2/hooks',
  });
  const res = await ctl(emu, 'GET', `/webhook_endpoints?account=${DEFAULT_ACCOUNT}`);
  expect(res.json.data).toEqual([
    expect.objectContaining({ id: made.id, account_id: DEFAULT_ACCOUNT, status: 'enabled' }),
  ]);
  expect(res.text).not.toContain(made.secret);
  expectError(
    await ctl(emu, 'GET', '/webhook_endpoints?account=acct_nope'),
    404,
    'resource_not_found',
    'account',
  );
  expectError(await ctl(emu, 'GET', '/webhook_endpoints'), 400, 'parameter_invalid', 'account');
});

test('GET /_control/kinds gives each kind an example create body that seeds a run as it is', async () => {
  const emu = testEmulator();
  const { data } = (await ctl(emu, 'GET', '/kinds')).json;
  expect(data.map((k: { kind: string }) => k.kind).sort()).toEqual([
    'augmentation',
    'evaluation',
    'rl_run',
    'scenario_run',
    'training_run',
    'twin',
  ]);
  for (const k of data) {
    expect(k.phases.length, k.kind).toBeGreaterThan(0);
    const seeded = await ctl(emu, 'POST', `/accounts/${DEFAULT_ACCOUNT}/runs`, {
      kind: k.kind,
      ...k.example,
    });
    expect(seeded.status, `${k.kind}: ${seeded.text}`).toBe(201);
  }
});

test("GET /_control/accounts/{id}/runs pages the account's runs of every kind with their next transition", async () => {
  const emu = testEmulator();
  const { account } = await emu.control('POST', '/accounts', { features: ['twins'] });
  const base = `/accounts/${account.id}`;
  const twin = await emu.control('POST', `${base}/runs`, {
    kind: 'twin',
    dataset: 'ds_01KA0000000000000000PANDA1',
    episode: 0,
    status: 'succeeded',
  });
  const evaluation = await emu.control('POST', `${base}/runs`, {
    kind: 'evaluation',
    spec: { path: 's.yaml', name: 's' },
  });
  const list = (await ctl(emu, 'GET', `${base}/runs`)).json;
  expect(list.data.map((r: { id: string; object: string }) => [r.id, r.object])).toEqual([
    [evaluation.id, 'evaluation'],
    [twin.id, 'twin'],
  ]);
  expect(list.data[0]).toMatchObject({
    status: 'queued',
    next_transition_at: '2026-01-01T00:00:00.500Z',
  });
  expect(list.data[1]).toMatchObject({
    status: 'succeeded',
    next_transition_at: null,
    progress: 1,
  });
  expect(list.next_transition_at).toBe('2026-01-01T00:00:00.500Z');
  // The account is settled to its now first, as a product read would be.
  await emu.control('POST', `${base}/clock/advance`, { seconds: 1 });
  const after = (await ctl(emu, 'GET', `${base}/runs?kind=evaluation`)).json;
  expect(after.data).toEqual([
    expect.objectContaining({ status: 'processing', phase: 'planning' }),
  ]);
  const older = (await ctl(emu, 'GET', `${base}/runs?limit=1&after=${evaluation.id}`)).json;
  expect(older.data.map((r: { id: string }) => r.id)).toEqual([twin.id]);
  expectError(await ctl(emu, 'GET', `${base}/runs?kind=nope`), 400, 'parameter_invalid', 'kind');
  expectError(
    await ctl(emu, 'GET', `${base}/runs?after=eval_nope`),
    400,
    'parameter_invalid',
    'after',
  );
  expectError(
    await ctl(emu, 'GET', '/accounts/acct_nope/runs'),
    404,
    'resource_not_found',
    'account_id',
  );
});

test('GET /_control/runs/{id} shows the timeline past and scheduled, the log, the files and the archive', async () => {
  const emu = testEmulator();
  const run = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/runs`, {
    kind: 'evaluation',
    spec: { path: 's.yaml', name: 's' },
  });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 1.2 });
  const mid = (await ctl(emu, 'GET', `/runs/${run.id}`)).json;
  expect(mid).toMatchObject({
    account_id: DEFAULT_ACCOUNT,
    attempt: 1,
    files: null,
    archive_url: null,
  });
  expect(mid.run).toMatchObject({
    id: run.id,
    object: 'evaluation',
    status: 'processing',
    phase: 'planning',
  });
  const shown = mid.timeline.map(
    (t: { past: boolean; at: string; status: string; phase: string | null }) =>
      `${t.past ? 'past' : 'next'} ${t.at.slice(17)} ${t.status} ${t.phase ?? ''}`.trim(),
  );
  expect(shown).toEqual([
    'past 00.000Z queued',
    'past 00.500Z processing materializing',
    'past 01.000Z processing planning',
    'next 01.500Z processing fetching',
    'next 02.000Z processing running',
    'next 04.500Z processing verifying',
    'next 04.800Z processing packaging',
    'next 05.000Z succeeded',
  ]);
  expect(mid.next_transition_at).toBe('2026-01-01T00:00:01.500Z');
  expect(mid.logs.length).toBeGreaterThan(0);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 10 });
  const done = (await ctl(emu, 'GET', `/runs/${run.id}`)).json;
  expect(done.timeline.every((t: { past: boolean }) => t.past)).toBe(true);
  // Its last transition shows what the run shows: a succeeded run has no phase.
  expect(done.timeline.at(-1)).toMatchObject({ status: 'succeeded', phase: null });
  expect(done.run).toMatchObject({ status: 'succeeded', phase: null });
  expect(done.files.map((f: { path: string }) => f.path)).toContain('manifest.json');
  expect(done.archive_url).toBe(`/_control/runs/${run.id}/archive`);
  const archive = await emu.app.request(done.archive_url);
  expect(archive.status).toBe(200);
  expect(archive.headers.get('content-type')).toBe('application/gzip');
  expect(gunzipSync(Buffer.from(await archive.arrayBuffer())).length).toBeGreaterThan(0);
  expectError(await ctl(emu, 'GET', '/runs/eval_nope'), 404, 'resource_not_found', 'run_id');
  expectError(
    await ctl(emu, 'GET', '/runs/eval_nope/archive'),
    404,
    'resource_not_found',
    'run_id',
  );
});

test('the archive of a run that has not succeeded answers 409 run_not_ready', async () => {
  const emu = testEmulator();
  const run = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/runs`, {
    kind: 'evaluation',
    spec: { path: 's.yaml', name: 's' },
  });
  expectError(await ctl(emu, 'GET', `/runs/${run.id}/archive`), 409, 'run_not_ready');
});
