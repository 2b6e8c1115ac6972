/**
 * The start-up banner (DESIGN.md section 6: the base URL, the default key, the docs and control
 * URLs) lists the keys that exist in the store: with a `--db` file that already held a world, the
 * scenario named on the command line was not applied and its keys may not exist.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { banner } from '../src/banner.js';
import { type EmulatorOptions, PACKAGE_ROOT } from '../src/emulator.js';
import { createEmulator } from '../src/tools/emulator.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, NO_TWINS_SECRET } from './helpers.js';

const URL = 'http://127.0.0.1:8710';

function start(options: EmulatorOptions) {
  const emulator = createEmulator({ seed: '0', clock: 'manual', ...options });
  onTestFinished(() => emulator.close());
  return emulator;
}

function keyLines(text: string): string[] {
  return text.split('\n').filter((l) => l.startsWith('  key'));
}

/** A scenarios directory with the shipped `default` and an `alpha` with one fixed key. */
function scenariosDir(): { dir: string; db: string } {
  const root = mkdtempSync(join(tmpdir(), 'svc-emulator-banner-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'scenarios');
  mkdirSync(dir);
  copyFileSync(join(PACKAGE_ROOT, 'scenarios', 'default.json'), join(dir, 'default.json'));
  const alpha = {
    name: 'alpha',
    accounts: [
      {
        id: 'acct_alpha',
        name: 'Alpha',
        keys: [{ name: 'k', secret: 'svc_test_alpha_key_1', scopes: ['evaluations:read'] }],
      },
    ],
  };
  writeFileSync(join(dir, 'alpha.json'), JSON.stringify(alpha));
  return { dir, db: join(root, 'world.db') };
}

const opts = (scenario: string, db = ':memory:') => ({ scenario, seed: '0', clock: 'manual', db });

test('a fresh world: the banner lists the scenario and its fixed keys with account names', () => {
  const text = banner(start({}), URL, opts('default'));
  expect(text).toContain(`  API        ${URL}/v1`);
  expect(text).toContain('  scenario   default   seed 0   clock manual');
  expect(keyLines(text)).toEqual([
    `  key        Bearer ${DEFAULT_SECRET}   (Default)`,
    `  key        Bearer ${NO_TWINS_SECRET}   (No Twins)`,
  ]);
});

test('a --db world kept on restart: the banner lists the keys in the store, not the named scenario', () => {
  const { dir, db } = scenariosDir();
  start({ db, scenariosDir: dir, scenario: 'alpha' }).close();
  const restarted = start({ db, scenariosDir: dir, scenario: 'default' });
  expect(restarted.scenarioApplied).toBe(false);
  const text = banner(restarted, URL, opts('default', db));
  expect(text).toContain(`  scenario   default (not applied: the world in ${db} was kept)`);
  expect(keyLines(text)).toEqual(['  key        Bearer svc_test_alpha_key_1   (Alpha)']);
});

test('a revoked key is not listed', async () => {
  const emulator = start({});
  const res = await emulator.app.request('/_control/keys/key_00000000000000000000000002/revoke', {
    method: 'POST',
  });
  expect(res.status).toBe(200);
  expect(keyLines(banner(emulator, URL, opts('default')))).toEqual([
    `  key        Bearer ${DEFAULT_SECRET}   (Default)`,
  ]);
});

test('a kept --db world: another scenario file lists a live key it spells only when valid', async () => {
  const { dir, db } = scenariosDir();
  const key = { name: 'k', scopes: ['evaluations:read'] };
  const file = (name: string, secret: string, extra: object) => ({
    name,
    accounts: [{ id: `acct_${name}`, name, keys: [{ ...key, secret, ...extra }] }],
  });
  writeFileSync(join(dir, 'valid.json'), JSON.stringify(file('valid', 'svc_test_extra_one', {})));
  // Not valid: an unknown field.
  const broken = file('broken', 'svc_test_extra_two', { colour: 'red' });
  writeFileSync(join(dir, 'broken.json'), JSON.stringify(broken));
  const first = start({ scenariosDir: dir, db });
  for (const secret of ['svc_test_extra_one', 'svc_test_extra_two']) {
    const res = await first.app.request(`/_control/accounts/${DEFAULT_ACCOUNT}/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...key, secret }),
    });
    expect(res.status).toBe(201);
  }
  first.close();
  // A world just built from the loaded scenario holds no key another file made: none is read.
  expect(keyLines(banner(start({ scenariosDir: dir }), URL, opts('default')))).toHaveLength(2);
  const emulator = start({ scenariosDir: dir, db });
  expect(keyLines(banner(emulator, URL, opts('default', db)))).toEqual([
    `  key        Bearer ${DEFAULT_SECRET}   (Default)`,
    `  key        Bearer ${NO_TWINS_SECRET}   (No Twins)`,
    '  key        Bearer svc_test_extra_one   (Default)',
  ]);
});

test("the clock line names the modes of the world's accounts where --clock does not set them", () => {
  const scenario = {
    name: 'held',
    clock: { mode: 'manual' as const },
    accounts: [{ id: 'acct_held', name: 'Held' }],
  };
  const held = start({ clock: 'realtime', scenario });
  expect(banner(held, URL, { ...opts('held'), clock: 'realtime' })).toContain(
    '  scenario   held   seed 0   clock manual (the accounts of the world); realtime for new ones',
  );
  // Where they agree, the mode alone.
  const plain = start({ clock: 'realtime' });
  expect(banner(plain, URL, { ...opts('default'), clock: 'realtime' })).toContain(
    '  scenario   default   seed 0   clock realtime\n',
  );
});
