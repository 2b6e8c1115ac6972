/**
 * Replay bundles (docs/bundles.md): a suite of calls with faults, clock steps and webhook
 * deliveries, recorded by a listening emulator, bundled (GET /_control/bundle), replayed on a
 * fresh one to the same answers; an edited answer named; a bound; no key secret in the file;
 * `--bundle` serving the marked world.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, expect, test } from 'vitest';
import { parseBundle, readBundleFile } from '../../src/areas/bundles/bundle-read.js';
import { buildArchive } from '../../src/core/archive.js';
import { type EmulatorOptions, packageVersion } from '../../src/emulator.js';
import { createNodeServer } from '../../src/http/node-server.js';
import { createEmulator } from '../../src/tools/emulator.js';
import { createControlClient } from '../../src/tools/harness/control-client.js';
import { runReplay } from '../../src/tools/replay/cli.js';
import { replay } from '../../src/tools/replay/replay.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET } from '../helpers.js';
import { eventually } from '../wait.js';

const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const closing = (server: Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A receiver that refuses its first delivery (500), then takes them (204). */
async function receiver() {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = n++ === 0 ? 500 : 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(closing(server));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

/** A listening emulator recording from its start; `call` answers status and JSON. */
async function listening(options: EmulatorOptions = {}) {
  const emulator = createEmulator({
    seed: '0',
    clock: 'manual',
    bundleRecord: true,
    webhookRetrySchedule: [0, 30, 60],
    ...options,
  });
  const server = createNodeServer(emulator.app, emulator.deps);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  emulator.deps.webhooks.origin = base;
  cleanups.push(() => emulator.close());
  cleanups.push(closing(server));
  const call = async (method: string, path: string, body?: unknown, secret?: string | null) => {
    const headers: Record<string, string> = {};
    if (secret !== null && !path.startsWith('/_control'))
      headers.authorization = `Bearer ${secret ?? DEFAULT_SECRET}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
  };
  return { emulator, base, call };
}

/** The suite a CI run made: about 50 calls with faults, clock steps and webhook deliveries. */
async function suite(call: Awaited<ReturnType<typeof listening>>['call']) {
  const hooks = await receiver();
  const created = await call('POST', '/_control/accounts', {});
  expect(created.status).toBe(201);
  const account: string = created.json.account.id;
  const secret: string = created.json.key.secret;
  await call('GET', '/v1/keys/me');
  await call('GET', '/v1/keys/me', undefined, secret);
  await call('GET', '/v1/keys/me', undefined, 'svc_not_a_key');
  await call('GET', '/v1/keys/me', undefined, null);
  const endpoint = await call('POST', '/v1/webhook_endpoints', { url: hooks }, secret);
  expect(endpoint.status).toBe(201);
  await call('POST', '/_control/faults', {
    match: { operation: 'getCurrentKey' },
    respond: { status: 503 },
    times: 1,
  });
  expect((await call('GET', '/v1/keys/me', undefined, secret)).status).toBe(503);
  expect((await call('GET', '/v1/keys/me', undefined, secret)).status).toBe(200);
  await call('POST', '/_control/faults', {
    match: { operation: 'createEvaluation' },
    respond: { status: 429, code: 'capacity_exceeded', retry_after: 3 },
    times: 1,
  });
  expect((await call('POST', '/v1/evaluations', { spec: SPEC }, secret)).status).toBe(429);
  const ids: string[] = [];
  for (let i = 0; i < 4; i += 1) {
    const run = await call('POST', '/v1/evaluations', { spec: SPEC, label: `run ${i}` }, secret);
    expect(run.status).toBe(201);
    ids.push(run.json.id);
    await call('POST', `/_control/accounts/${account}/clock/advance`, { seconds: 120 });
    await call('GET', `/v1/evaluations/${run.json.id}`, undefined, secret);
    await call('GET', '/v1/evaluations?limit=2', undefined, secret);
  }
  await call('POST', '/v1/evaluations', { spec: 'not a spec' }, secret);
  await call('POST', '/v1/evaluations', '{"spec":', secret);
  // Deliveries: the first attempt refused (500), its retry 30 s later taken.
  type Listed = { status: string; attempts: { in_flight: boolean }[] };
  const deliveries = async () =>
    (await call('GET', `/_control/webhook_deliveries?account=${account}`)).json.data as Listed[];
  // The first delivery was refused and is retried 30 s later: the clock moves past it.
  await call('POST', `/_control/accounts/${account}/clock/advance`, { seconds: 60 });
  await eventually(async () => {
    const list = await deliveries();
    return list.length > 0 && list.every((d) => d.status !== 'pending') ? true : undefined;
  }, 'every delivery made');
  for (let i = 0; i < 3; i += 1) {
    await call('GET', `/v1/evaluations/${ids[i]}`, undefined, secret);
    await call('GET', '/v1/events?limit=5', undefined, secret);
  }
  await call('GET', `/_control/webhook_deliveries?account=${account}`);
  await call('GET', '/_control/faults');
  await call('POST', `/v1/evaluations/${ids[0]}/cancel`, undefined, secret);
  await call('GET', '/v1/usage', undefined, secret);
  await call('POST', `/_control/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 5 });
  await call('GET', '/v1/evaluations', undefined, secret);
  for (let i = 0; i < 4; i += 1) {
    await call('GET', `/v1/evaluations/${ids[3]}`, undefined, secret);
    await call('GET', `/_control/accounts/${account}/clock`);
  }
  return { account, secret };
}

function untar(gz: Buffer): Map<string, string> {
  const tar = gunzipSync(gz);
  const files = new Map<string, string>();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const size = Number.parseInt(header.toString('utf8', 124, 136).replace(/\0.*$/s, ''), 8);
    if (header[156] === 0x30) files.set(name, tar.toString('utf8', at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

const dirs: string[] = [];
const dir = () => {
  dirs.push(mkdtempSync(join(tmpdir(), 'bundle-')));
  return dirs.at(-1)!;
};
afterAll(() => {
  for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
});

test('a suite of about 50 calls, bundled, replays to the same answers on a fresh emulator', async () => {
  const { base, call } = await listening();
  const { secret } = await suite(call);
  const res = await fetch(`${base}/_control/bundle`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/gzip');
  const bytes = Buffer.from(await res.arrayBuffer());
  const bundle = parseBundle(bytes, packageVersion());
  expect(bundle.calls.length).toBeGreaterThanOrEqual(45);
  expect(bundle.calls.map((c) => c.kind)).toEqual(
    expect.arrayContaining(['product', 'clock', 'fault', 'control']),
  );
  expect(bundle.attempts.length).toBeGreaterThanOrEqual(4);

  // No key secret anywhere in the file: labels stand for them.
  for (const [name, text] of untar(bytes)) {
    for (const s of [secret, DEFAULT_SECRET, 'svc_test_emulator_no_twins'])
      expect(text.includes(s), `${name} holds ${s}`).toBe(false);
  }
  expect(bundle.calls[1]!.headers).toContainEqual([
    'authorization',
    'Bearer {{key:key_00000000000000000000000001}}',
  ]);

  const file = join(dir(), 'bundle.tar.gz');
  writeFileSync(file, bytes);
  const outcome = await replay(readBundleFile(file, packageVersion()));
  expect(outcome).toEqual({
    code: 0,
    calls: bundle.calls.length,
    message: `${bundle.calls.length} calls replayed, every answer the same`,
  });
  // The bundle's bytes do not depend on when it was downloaded.
  const again = Buffer.from(await (await fetch(`${base}/_control/bundle`)).arrayBuffer());
  expect(again.equals(bytes)).toBe(true);
});

test('answers of bytes and of UTF-8 text are recorded as the client got them', async () => {
  const { base, call } = await listening();
  const label = 'pick ✓ 置き場 🤖';
  const run = await call('POST', '/v1/evaluations', { spec: SPEC, label });
  expect(run.status).toBe(201);
  await call('POST', `/_control/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 3600 });
  const done = await call('GET', `/v1/evaluations/${run.json.id}`);
  expect(done.json.status).toBe('succeeded');
  const archive = await fetch(`${base}/v1/evaluations/${run.json.id}/archive`, {
    headers: { authorization: `Bearer ${DEFAULT_SECRET}` },
  });
  expect(archive.status).toBe(200);
  const bytes = Buffer.from(await archive.arrayBuffer());

  const bundle = parseBundle(
    Buffer.from(await (await fetch(`${base}/_control/bundle`)).arrayBuffer()),
    packageVersion(),
  );
  const created = bundle.calls.find((c) => c.method === 'POST' && c.path === '/v1/evaluations')!;
  expect(JSON.parse(created.body!)).toEqual({ spec: SPEC, label });
  const downloaded = bundle.calls.find((c) => c.path.endsWith('/archive'))!;
  expect(downloaded.answer.body).toEqual({
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  });
  expect(bundle.calls.map((c) => c.n)).toEqual(bundle.calls.map((_, i) => i + 1));
  const file = join(dir(), 'bytes.tar.gz');
  writeFileSync(file, Buffer.from(await (await fetch(`${base}/_control/bundle`)).arrayBuffer()));
  expect((await replay(readBundleFile(file, packageVersion()))).code).toBe(0);
});

test('a bundle whose recorded answer was edited replays to 1, naming that call', async () => {
  const { base, call } = await listening();
  await suite(call);
  const bytes = Buffer.from(await (await fetch(`${base}/_control/bundle`)).arrayBuffer());
  const files = untar(bytes);
  const lines = files.get('svc-emulator-bundle/calls.jsonl')!.trimEnd().split('\n');
  const edited = JSON.parse(lines[9]!);
  edited.answer.body.sha256 = '0'.repeat(64);
  lines[9] = JSON.stringify(edited);
  const entries = [...files].map(([name, content]) => ({
    path: name.replace('svc-emulator-bundle/', ''),
    content: name.endsWith('calls.jsonl') ? `${lines.join('\n')}\n` : content,
  }));
  const file = join(dir(), 'edited.tar.gz');
  writeFileSync(file, buildArchive('svc-emulator-bundle', entries, 0).bytes);
  const outcome = await replay(readBundleFile(file, packageVersion()));
  expect(outcome.code).toBe(1);
  expect(outcome.message).toMatch(
    new RegExp(
      `^call 10 \\(${edited.method} ${edited.path.replace(/[?]/g, '\\?')}\\) differs: the body differs`,
    ),
  );
  // The CLI: 1 for a difference, 2 when it cannot run.
  expect(await runReplay([file])).toBe(1);
  expect(await runReplay([join(dir(), 'missing.tar.gz')])).toBe(2);
});

test('a bundle is bounded: past --bundle-limit it is refused, saying how to narrow it', async () => {
  const { base, call } = await listening({ bundleLimitBytes: 64 * 1024 });
  await call('GET', '/v1/keys/me');
  const res = await fetch(`${base}/_control/bundle`);
  expect(res.status).toBe(409);
  const body = (await res.json()) as { error: { message: string } };
  expect(body.error).toMatchObject({ type: 'conflict_error', code: 'bundle_too_large' });
  expect(body.error.message).toContain('?account=ID');
  expect(body.error.message).toContain('POST /_control/bundle/mark');
  // One account's bundle is small enough.
  const one = await fetch(`${base}/_control/bundle?account=${DEFAULT_ACCOUNT}`);
  expect([200, 409]).toContain(one.status);
});

test('--bundle serves the world as it stood at the mark: the first call answers as it did', async () => {
  const { base, call } = await listening({ bundleRecord: false });
  await call('POST', '/_control/accounts/acct_00000000000000000000000001/clock/advance', {
    seconds: 30,
  });
  await call('POST', '/v1/evaluations', { spec: SPEC, label: 'before the mark' });
  const mark = await fetch(`${base}/_control/bundle/mark`, { method: 'POST' });
  expect(mark.status).toBe(201);
  const first = await call('GET', '/v1/evaluations');
  await call('POST', '/v1/evaluations', { spec: SPEC, label: 'after the mark' });
  // The harness saves it, as a suite does when it failed.
  const control = createControlClient(base);
  expect(await control.bundleMark()).toMatchObject({ marked: true, reason: 'mark', calls: 2 });
  const file = await control.saveBundle(join(dir(), 'marked.tar.gz'));

  const served = createEmulator({ bundle: file });
  cleanups.push(() => served.close());
  const res = await served.app.request(`${base}/v1/evaluations`, {
    headers: { authorization: `Bearer ${DEFAULT_SECRET}` },
  });
  expect(res.status).toBe(first.status);
  expect(await res.text()).toBe(first.text);
});
