/**
 * Webhook deliveries as a receiver and an operator see them (docs/runtime.md "Deliveries"):
 * every delivery verifies with the `standardwebhooks` library (wall timestamps), virtual stamps
 * fall outside its window, finished records stay within `--webhook-history`, the control route
 * pages, and a `--db` file keeps pending deliveries across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, expect, test } from 'vitest';
import { testEmulator } from '../../../test/helpers.js';
import { eventually } from '../../../test/wait.js';
import type { EmulatorOptions } from '../../emulator.js';

const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A receiver as an SDK writes one: it verifies each delivery with `standardwebhooks` and answers
 * 204, or 400 with the library's reason. While `hold` is true it never answers.
 */
async function receiver() {
  const state = {
    secret: '',
    hold: false,
    held: 0,
    verified: [] as string[],
    rejected: [] as string[],
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.hold) {
        state.held += 1;
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        new Webhook(state.secret).verify(body, req.headers as Record<string, string>);
        state.verified.push(JSON.parse(body).type);
        res.statusCode = 204;
      } catch (err) {
        state.rejected.push((err as Error).message);
        res.statusCode = 400;
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, state };
}

/** An emulator with a fresh account; `close` is registered unless `keep`. */
async function setup(options: EmulatorOptions = {}, keep = false) {
  const emu = testEmulator({ webhookRetrySchedule: [0, 20], ...options });
  if (!keep) cleanups.push(() => emu.emulator.close());
  const created = await emu.control('POST', '/accounts', {});
  const secret: string = created.key.secret;
  const call = (method: string, path: string, body?: unknown) =>
    emu.api(method, path, { secret, body });
  return { emu, accountId: created.account.id as string, call };
}

async function endpoint(
  call: (m: string, p: string, b?: unknown) => Promise<{ status: number; json: unknown }>,
  url: string,
) {
  const res = await call('POST', '/v1/webhook_endpoints', { url });
  expect(res.status).toBe(201);
  return res.json as { id: string; secret: string };
}

/** Polls the control route until `count` deliveries are finished. */
function finished(emu: ReturnType<typeof testEmulator>, count: number, query = '') {
  return eventually(async () => {
    const page = await emu.control('GET', `/webhook_deliveries?limit=1000${query}`);
    const done = page.data.filter((d: { status: string }) => d.status !== 'pending');
    return done.length >= count && done.length === page.data.length ? page.data : undefined;
  }, `${count} finished deliveries`);
}

test('every delivery verifies with standardwebhooks as a receiver checks it (wall timestamps)', async () => {
  const hook = await receiver();
  const t = await setup();
  hook.state.secret = (await endpoint(t.call, hook.url)).secret;
  expect((await t.call('POST', '/v1/evaluations', { spec: SPEC })).status).toBe(201);
  await t.emu.control('POST', `/accounts/${t.accountId}/clock/advance`, { seconds: 10 });
  const list = await finished(t.emu, 3);
  expect(hook.state.rejected).toEqual([]);
  expect(hook.state.verified).toEqual([
    'evaluation.queued',
    'evaluation.processing',
    'evaluation.succeeded',
  ]);
  expect(list.map((d: { status: string }) => d.status)).toEqual([
    'delivered',
    'delivered',
    'delivered',
  ]);
});

test('virtual timestamps fail the library window when the virtual clock is far from now', async () => {
  const hook = await receiver();
  // The default scenario's clocks start at 2026-01-01, far from the receiver's wall clock.
  const t = await setup({ webhookTimestamps: 'virtual', webhookRetrySchedule: [0] });
  hook.state.secret = (await endpoint(t.call, hook.url)).secret;
  await t.call('POST', '/v1/evaluations', { spec: SPEC });
  const [d] = await finished(t.emu, 1);
  expect(d.status).toBe('failed');
  expect(d.attempts[0].status_code).toBe(400);
  expect(hook.state.rejected).toEqual([expect.stringMatching(/timestamp too (old|new)/i)]);
});

test('finished records never exceed --webhook-history; rows hold no bodies', async () => {
  const hooks = await Promise.all([receiver(), receiver(), receiver()]);
  const t = await setup({ webhookHistory: 4 });
  for (const hook of hooks) hook.state.secret = (await endpoint(t.call, hook.url)).secret;
  const db = t.emu.emulator.deps.store.db;
  const countFinished = () =>
    (
      db
        .prepare(
          "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status IN ('delivered', 'failed')",
        )
        .get() as { n: number }
    ).n;
  const seen: number[] = [];
  for (let i = 0; i < 5; i++) {
    await t.call('POST', '/v1/evaluations', { spec: SPEC });
    await t.emu.control('POST', `/accounts/${t.accountId}/clock/advance`, { seconds: 10 });
    seen.push(countFinished());
  }
  const list = await finished(t.emu, 4);
  seen.push(countFinished());
  // 5 runs x 3 events x 3 endpoints = 45 deliveries, all sent; only the newest 4 are kept.
  expect(hooks.reduce((n, h) => n + h.state.verified.length, 0)).toBe(45);
  expect(Math.max(...seen)).toBeLessThanOrEqual(4);
  expect(list).toHaveLength(4);
  expect(list.at(-1).id).toBe('whdl_00000045');
  const columns = (db.prepare('PRAGMA table_info(webhook_deliveries)').all() as { name: string }[])
    .map((c) => c.name)
    .sort();
  expect(columns).not.toContain('body');
  expect(columns).not.toContain('headers');
});

test('the control route pages with limit and after, oldest first', async () => {
  const hooks = await Promise.all([receiver(), receiver(), receiver()]);
  const t = await setup();
  for (const hook of hooks) hook.state.secret = (await endpoint(t.call, hook.url)).secret;
  await t.call('POST', '/v1/evaluations', { spec: SPEC });
  await t.emu.control('POST', `/accounts/${t.accountId}/clock/advance`, { seconds: 10 });
  const all = await finished(t.emu, 9);
  const ids: string[] = [];
  let after = '';
  const pages: { n: number; more: boolean }[] = [];
  for (let i = 0; i < 5; i++) {
    const page = await t.emu.control('GET', `/webhook_deliveries?limit=4${after}`);
    ids.push(...page.data.map((d: { id: string }) => d.id));
    pages.push({ n: page.data.length, more: page.has_more });
    if (!page.has_more) {
      expect(page.next_cursor).toBeNull();
      break;
    }
    expect(page.next_cursor).toBe(page.data.at(-1).id);
    after = `&after=${page.next_cursor}`;
  }
  expect(pages).toEqual([
    { n: 4, more: true },
    { n: 4, more: true },
    { n: 1, more: false },
  ]);
  expect(ids).toEqual(all.map((d: { id: string }) => d.id));
  const filtered = await t.emu.control('GET', `/webhook_deliveries?endpoint=${all[0].endpoint_id}`);
  expect(filtered.data).toHaveLength(3);
  for (const bad of ['0', '1001', 'x']) {
    const res = await t.emu.emulator.app.request(`/_control/webhook_deliveries?limit=${bad}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({
      code: 'parameter_invalid',
      param: 'limit',
    });
  }
});

test('with a --db file, pending deliveries survive a restart and are delivered after it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-emulator-webhooks-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'world.db');
  const hook = await receiver();
  hook.state.hold = true;
  const first = await setup({ db }, true);
  hook.state.secret = (await endpoint(first.call, hook.url)).secret;
  await first.call('POST', '/v1/evaluations', { spec: SPEC });
  await first.emu.control('POST', `/accounts/${first.accountId}/clock/advance`, { seconds: 10 });
  const before = await first.emu.control('GET', '/webhook_deliveries');
  expect(before.data.map((d: { status: string }) => d.status)).toEqual([
    'pending',
    'pending',
    'pending',
  ]);
  // The first attempt is held by the receiver before the emulator stops: not still on its way,
  // to arrive once the receiver answers again.
  for (let waited = 0; hook.state.held === 0 && waited < 5000; waited += 10)
    await new Promise((r) => setTimeout(r, 10));
  expect(hook.state.held).toBe(1);
  first.emu.emulator.close();
  hook.state.hold = false;
  const second = testEmulator({ db, webhookRetrySchedule: [0, 20] });
  cleanups.push(() => second.emulator.close());
  expect(second.emulator.scenarioApplied).toBe(false);
  second.emulator.deps.webhooks.origin = 'http://localhost';
  const list = await finished(second, 3);
  expect(list.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual(
    before.data.map((d: { id: string }) => [d.id, 'delivered']),
  );
  expect(hook.state.verified).toEqual([
    'evaluation.queued',
    'evaluation.processing',
    'evaluation.succeeded',
  ]);
});

test('with a --db file, a retry scheduled before a restart is made after it, at its virtual time', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-emulator-retries-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'world.db');
  const hook = await receiver();
  const first = await setup({ db, webhookRetrySchedule: [0, 5000] }, true);
  hook.state.secret = (await endpoint(first.call, hook.url)).secret;
  // A receiver secret that does not match: the library refuses, the receiver answers 400.
  const secret = hook.state.secret;
  hook.state.secret = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  await first.call('POST', '/v1/evaluations', { spec: SPEC });
  // The first attempt answered (400) and recorded, its retry due.
  const pending = await eventually(async () => {
    const [d] = (await first.emu.control('GET', '/webhook_deliveries')).data;
    return d?.attempts.length === 1 && !d.attempts[0].in_flight ? d : undefined;
  }, 'the first attempt');
  expect(hook.state.rejected).toHaveLength(1);
  expect(pending).toMatchObject({ status: 'pending', next_attempt_at: '2026-01-01T00:00:05.000Z' });
  first.emu.emulator.close();

  hook.state.secret = secret;
  const second = testEmulator({ db, webhookRetrySchedule: [0, 5000] });
  cleanups.push(() => second.emulator.close());
  second.emulator.deps.webhooks.origin = 'http://localhost';
  await new Promise((r) => setTimeout(r, 100));
  expect(hook.state.verified).toEqual([]);
  await second.control('POST', `/accounts/${first.accountId}/clock/advance`, { seconds: 5 });
  const [done] = await finished(second, 3);
  expect(done.status).toBe('delivered');
  expect(
    done.attempts.map((a: { at: string; status_code: number }) => [a.at, a.status_code]),
  ).toEqual([
    ['2026-01-01T00:00:00.000Z', 400],
    ['2026-01-01T00:00:05.000Z', 204],
  ]);
  // In due order: the processing event (0.5 s) before the retry (5 s), then the succeeded one.
  expect(hook.state.verified).toEqual([
    'evaluation.processing',
    'evaluation.queued',
    'evaluation.succeeded',
  ]);
});
