/**
 * Virtual time has a floor as it has a ceiling (issue 27 item 3): before 1970-01-01 no tar header
 * or id can hold an instant. Every entry point that starts or sets a clock before it answers 400
 * naming the field, and a clock stored before it (an older emulator's --db file) reads as the
 * floor: the account still answers, its runs succeed and their archives download.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { MIN_VIRTUAL_TIMESTAMP } from '../../src/core/clock-mode.js';
import { createEmulator } from '../../src/tools/emulator.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, expectError, testEmulator } from '../helpers.js';

const SPEC = { path: 'specs/pick.yaml', name: 'pick' };
const EARLY = '1900-01-01T00:00:00Z';

async function ctl(
  emu: ReturnType<typeof testEmulator>,
  method: string,
  path: string,
  body: unknown,
) {
  const res = await emu.app.request(`/_control${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

describe('entry points before the floor answer 400 naming the field', () => {
  const cases: [string, string, unknown, string][] = [
    ['POST', '/accounts', { clock: { mode: 'manual', start: EARLY } }, 'clock.start'],
    [
      'POST',
      '/scenarios/load',
      { scenario: { name: 'old', clock: { start: '1950-06-01T00:00:00Z' } } },
      'scenario.clock.start',
    ],
    ['POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { to: EARLY }, 'to'],
  ];
  for (const [method, path, body, param] of cases) {
    test(`${method} ${path} ${JSON.stringify(body)}`, async () => {
      const emu = testEmulator();
      const error = expectError(
        await ctl(emu, method, path, body),
        400,
        'parameter_invalid',
        param,
      );
      expect(error.message).toContain(MIN_VIRTUAL_TIMESTAMP);
    });
  }
});

test('an account started at the floor runs an evaluation to success and serves its archive', async () => {
  const emu = testEmulator();
  const made = await ctl(emu, 'POST', '/accounts', {
    clock: { mode: 'manual', start: MIN_VIRTUAL_TIMESTAMP },
  });
  expect(made.status).toBe(201);
  const auth = { authorization: `Bearer ${made.json.key.secret}` };
  const created = await emu.app.request('/v1/evaluations', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ spec: SPEC }),
  });
  const run = (await created.json()) as any;
  await ctl(emu, 'POST', `/accounts/${made.json.account.id}/clock/advance`, { seconds: 10 });
  const got = (await (
    await emu.app.request(`/v1/evaluations/${run.id}`, { headers: auth })
  ).json()) as any;
  expect(got.status).toBe('succeeded');
  const archive = await emu.app.request(`/v1/evaluations/${run.id}/archive`, { headers: auth });
  expect(archive.status).toBe(200);
});

describe('a --db file whose clock stands before the floor', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('starts, reads the clock as the floor, and the account answers and runs', async () => {
    dir = mkdtempSync(join(tmpdir(), 'clock-floor-'));
    const db = join(dir, 'world.db');
    const first = createEmulator({ seed: '0', clock: 'manual', db });
    // What an older emulator could write: a clock started in 1900.
    first.deps.store.accounts.setClock(DEFAULT_ACCOUNT, {
      mode: 'manual',
      now: Date.parse(EARLY),
      wall: 0,
    });
    first.close();

    const second = createEmulator({ seed: '0', clock: 'manual', db });
    try {
      const clock = (await (
        await second.app.request(`/_control/accounts/${DEFAULT_ACCOUNT}/clock`)
      ).json()) as any;
      expect(clock.now).toBe(MIN_VIRTUAL_TIMESTAMP);
      const auth = {
        authorization: `Bearer ${DEFAULT_SECRET}`,
        'content-type': 'application/json',
      };
      const created = await second.app.request('/v1/evaluations', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ spec: SPEC }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as any;
      await second.app.request(`/_control/accounts/${DEFAULT_ACCOUNT}/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 10 }),
      });
      const got = await second.app.request(`/v1/evaluations/${id}`, { headers: auth });
      expect(got.status).toBe(200);
      expect(((await got.json()) as any).status).toBe('succeeded');
    } finally {
      second.close();
    }
  });
});
