/**
 * A scenario's size is bounded before any of it is applied (issue 36): at most 2,000 records and
 * 20,000 rows of files and log lines, 10,000 generated files per twin. Past a limit, an inline
 * load answers 400 naming the field where the count went over, and the world is left as it was.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { SHIPPED_SCENARIOS } from '../../src/emulator.js';
import { createEmulator } from '../../src/tools/emulator.js';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-scenario-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const twins = (items: object[]) => ({
  name: 'big',
  accounts: [{ id: 'acct_big', features: ['twins'], twins: items }],
});

/** Loads `scenario` inline; answers the error after checking the world was left as it was. */
async function refused(emu: ReturnType<typeof testEmulator>, scenario: unknown, param: string) {
  const res = await emu.api('POST', '/_control/scenarios/load', {
    secret: null,
    body: { scenario },
  });
  const error = expectError(res, 400, 'parameter_invalid', param);
  expect((await emu.api('GET', '/v1/keys/me')).status).toBe(200);
  expect((await emu.control('GET', '/scenarios')).loaded).toBe('default');
  return error.message as string;
}

test("200 twins generating 100,000 files each: 400 naming the first twin's generate_files", async () => {
  const emu = testEmulator();
  const scenario = twins(
    Array.from({ length: 200 }, () => ({ status: 'succeeded', generate_files: 100_000 })),
  );
  const message = await refused(emu, scenario, 'scenario.accounts.0.twins.0.generate_files');
  expect(message).toBe(
    "Invalid value for 'scenario.accounts.0.twins.0.generate_files': This scenario makes 20,000,000 rows of files and log lines (its runs' `files` and `logs`, its twins' `generate_files`); a scenario makes at most 20,000.",
  );
  emu.emulator.close();
});

test('300,000 empty twins in under 1 MiB: 400 naming the twin past 2,000 records', async () => {
  const emu = testEmulator();
  const scenario = twins(Array.from({ length: 300_000 }, () => ({})));
  expect(JSON.stringify({ scenario }).length).toBeLessThan(1024 * 1024);
  const message = await refused(emu, scenario, 'scenario.accounts.0.twins.1999');
  expect(message).toMatch(/: This scenario makes 300,001 records \(accounts, keys, runs, /);
  expect(message).toMatch(/a scenario makes at most 2,000\.$/);
  emu.emulator.close();
});

test('keys, runs and endpoints of many accounts count together; the limit itself loads', async () => {
  const emu = testEmulator();
  const account = (i: number) => ({
    id: `acct_${i}`,
    keys: [{ name: 'k', scopes: ['usage:read'] }],
    webhook_endpoints: [{ url: 'https://example.com/hooks' }],
    environments: [{ name: 'E' }],
  });
  const accounts = Array.from({ length: 500 }, (_, i) => account(i));
  // 500 accounts of 4 records each: exactly 2,000.
  const ok = await emu.api('POST', '/_control/scenarios/load', {
    secret: null,
    body: { scenario: { name: 'wide', accounts } },
  });
  expect(ok.status).toBe(200);
  await emu.control('POST', '/scenarios/load', { name: 'default' });
  const over = { name: 'wide', accounts: [...accounts, { id: 'acct_one_more' }] };
  expect(await refused(emu, over, 'scenario.accounts.500')).toMatch(/makes 2,001 records/);
  emu.emulator.close();
});

test('a file past a limit is refused by name and at start, naming the file and the field', async () => {
  const scenario = twins([
    { status: 'succeeded', generate_files: 9_000 },
    { generate_files: 9_000 },
    {
      files: Array.from({ length: 3_000 }, (_, i) => ({
        path: `f${i}`,
        bytes: 1,
        sha256: 'a'.repeat(64),
      })),
    },
  ]);
  writeFileSync(join(dir, 'many-files.json'), JSON.stringify(scenario));
  const dirs = [dir, SHIPPED_SCENARIOS];
  const emu = testEmulator({ scenariosDir: dirs });
  const res = await emu.api('POST', '/_control/scenarios/load', {
    secret: null,
    body: { name: 'many-files' },
  });
  const error = expectError(res, 400, 'parameter_invalid', 'accounts.0.twins.2.files');
  expect(error.message).toMatch(
    /many-files\.json \(field accounts\.0\.twins\.2\.files\): This scenario makes 21,000 rows/,
  );
  emu.emulator.close();
  expect(() => createEmulator({ scenariosDir: dirs, scenario: 'many-files' })).toThrow(
    /many-files\.json \(field accounts\.0\.twins\.2\.files\): This scenario makes 21,000 rows/,
  );
});

test('a seeded twin generates at most 10,000 files', async () => {
  const emu = testEmulator();
  const res = await emu.api('POST', `/_control/accounts/${DEFAULT_ACCOUNT}/twins`, {
    secret: null,
    body: { status: 'succeeded', generate_files: 10_001 },
  });
  const error = expectError(res, 400, 'parameter_invalid', 'generate_files');
  expect(error.message).toMatch(/10000|10,000/);
  emu.emulator.close();
});

test('an inline scenario names its field at fault; name and scenario together answer 400', async () => {
  const emu = testEmulator();
  const load = (body: unknown) =>
    emu.api('POST', '/_control/scenarios/load', { secret: null, body });
  const bad = await load({ scenario: { name: 'x', accounts: [{ id: 'acct_x', name: 7 }] } });
  expectError(bad, 400, 'parameter_invalid', 'scenario.accounts.0.name');
  for (const body of [{}, { name: 'default', scenario: { name: 'x' } }]) {
    const error = expectError(await load(body), 400, 'parameter_invalid', null);
    expect(error.message).toBe(
      'Invalid request body: give `name` (a file of the scenarios folders) or `scenario` (an inline scenario), exactly one.',
    );
  }
  emu.emulator.close();
});
