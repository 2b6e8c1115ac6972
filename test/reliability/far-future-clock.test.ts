/**
 * Issue 9 item 3: virtual time stops at the latest instant every artifact can encode
 * (MAX_VIRTUAL_MS, runtime/clock.ts). Every entry point that puts a clock past it answers 400
 * naming the field; at the limit a run still finishes and its archive downloads; a clock stored
 * past it by an older emulator reads as the limit and nothing answers 500.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { MAX_VIRTUAL_MS, MAX_VIRTUAL_TIMESTAMP } from '../../src/core/clock-mode.js';
import { createEmulator } from '../../src/tools/emulator.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, expectError, testEmulator } from '../helpers.js';

const SPEC = { path: 'specs/pick.yaml', name: 'pick' };
const PAST = '2242-03-16T12:56:32Z';

async function ctl(
  app: ReturnType<typeof testEmulator>['app'],
  method: string,
  path: string,
  body: unknown,
) {
  const res = await app.request(`/_control${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

describe('entry points past the limit answer 400 naming the field', () => {
  const cases: [string, string, unknown, string][] = [
    ['PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, { now: PAST }, 'now'],
    ['POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { to: '9999-12-31T00:00:00Z' }, 'to'],
    [
      'POST',
      `/accounts/${DEFAULT_ACCOUNT}/clock/advance`,
      { seconds: 10 * 365 * 86_400 },
      'seconds',
    ],
    ['POST', '/accounts', { clock: { start: PAST } }, 'clock.start'],
    [
      'POST',
      '/scenarios/load',
      { scenario: { name: 'far', clock: { start: PAST } } },
      'scenario.clock.start',
    ],
  ];
  for (const [method, path, body, param] of cases) {
    test(`${method} ${path} ${JSON.stringify(body)}`, async () => {
      const emu = testEmulator();
      if (param === 'seconds') {
        // Ten years (the most one advance takes) from just under the limit.
        const near = new Date(MAX_VIRTUAL_MS - 86_400_000).toISOString();
        expect(
          (await ctl(emu.app, 'PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, { now: near })).status,
        ).toBe(200);
      }
      const res = await ctl(emu.app, method, path, body);
      const error = expectError(res, 400, 'parameter_invalid', param);
      expect(error.message).toContain(MAX_VIRTUAL_TIMESTAMP);
    });
  }
});

test('at the limit a run finishes and its archive downloads', async () => {
  const emu = testEmulator();
  const near = new Date(MAX_VIRTUAL_MS - 3_600_000).toISOString();
  await emu.control('PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, { now: near });
  const created = await emu.api('POST', '/v1/evaluations', { body: { spec: SPEC } });
  expect(created.status).toBe(201);
  const run = created.json;
  const advanced = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, {
    to: MAX_VIRTUAL_TIMESTAMP,
  });
  expect(advanced.now).toBe(MAX_VIRTUAL_TIMESTAMP);
  const got = await emu.api('GET', `/v1/evaluations/${run.id}`);
  expect(got.status).toBe(200);
  expect(got.json.status).toBe('succeeded');
  const url = new URL(got.json.download.url);
  const archive = await emu.app.request(url.pathname + url.search, {
    headers: { authorization: `Bearer ${DEFAULT_SECRET}` },
  });
  expect(archive.status).toBe(200);
  expect((await archive.arrayBuffer()).byteLength).toBeGreaterThan(0);
});

test('a realtime or scaled clock stops at the limit', () => {
  let wall = 0;
  const clock = new VirtualClock(MAX_VIRTUAL_MS - 1000, 'scaled:1000', () => wall, 0);
  wall = 10_000_000;
  expect(clock.now()).toBe(MAX_VIRTUAL_MS);
});

describe('a --db file whose clock an older emulator left past the limit', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('starts, reads the clock as the limit and answers /v1 without a 500', async () => {
    dir = mkdtempSync(join(tmpdir(), 'far-future-'));
    const db = join(dir, 'world.db');
    const first = createEmulator({ seed: '0', clock: 'manual', db });
    const before = await first.app.request('/v1/evaluations', {
      method: 'POST',
      headers: { authorization: `Bearer ${DEFAULT_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ spec: SPEC }),
    });
    expect(before.status).toBe(201);
    // What an older emulator wrote after `advance {to: 9999-12-31}`.
    first.deps.store.accounts.setClock(DEFAULT_ACCOUNT, {
      mode: 'manual',
      now: Date.parse('9999-12-31T00:00:00Z'),
      wall: 0,
    });
    first.close();

    const second = createEmulator({ seed: '0', clock: 'manual', db });
    try {
      const clock = await second.app.request(`/_control/accounts/${DEFAULT_ACCOUNT}/clock`);
      expect(((await clock.json()) as any).now).toBe(MAX_VIRTUAL_TIMESTAMP);
      for (const path of ['/v1/evaluations', '/v1/events', '/v1/keys/me']) {
        const res = await second.app.request(path, {
          headers: { authorization: `Bearer ${DEFAULT_SECRET}` },
        });
        expect(res.status, path).toBe(200);
      }
      const list = (await (
        await second.app.request('/v1/evaluations', {
          headers: { authorization: `Bearer ${DEFAULT_SECRET}` },
        })
      ).json()) as any;
      expect(list.data[0].status).toBe('succeeded');
    } finally {
      second.close();
    }
  });
});
