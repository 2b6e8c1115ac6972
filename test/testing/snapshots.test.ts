/** The harness's snapshot methods: a world saved once, restored per test; an account's, alone. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  ControlError,
  type RunningEmulator,
  startEmulator,
} from '../../src/tools/harness/index.js';

const SPEC = { path: 'specs/pick.yaml', name: 'pick' };

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.stop());

test('snapshot and restore put the whole world back, list and delete manage them', async () => {
  const acct = await emu.control.newAccount();
  await acct.seedEvaluation({ spec: SPEC });
  const saved = await emu.control.snapshot('seeded');
  expect(saved).toMatchObject({ name: 'seeded', scope: 'world', account: null });
  const later = await emu.control.newAccount();
  await emu.control.restore('seeded');
  expect(await fetch(`${later.apiUrl}/keys/me`, { headers: later.headers })).toHaveProperty(
    'status',
    401,
  );
  const runs = await fetch(`${acct.apiUrl}/evaluations`, { headers: acct.headers });
  expect(((await runs.json()) as { data: unknown[] }).data).toHaveLength(1);
  expect((await emu.control.listSnapshots()).data.map((s) => s.name)).toEqual(['seeded']);
  // A downloaded file loads back under another name.
  const file = await emu.control.downloadSnapshot('seeded');
  expect(file.format).toBe('svc-emulator-snapshot');
  expect((await emu.control.loadSnapshot('again', file)).scope).toBe('world');
  expect(await emu.control.deleteSnapshot('seeded')).toEqual({ name: 'seeded', deleted: true });
  await emu.control.deleteSnapshot('again');
  const missing = await emu.control.restore('seeded').catch((e: unknown) => e);
  expect(missing).toBeInstanceOf(ControlError);
  expect(missing).toMatchObject({ status: 404, error: { code: 'resource_not_found' } });
});

test("a test account's snapshot and restore touch that account only", async () => {
  const mine = await emu.control.newAccount();
  const other = await emu.control.newAccount();
  expect((await mine.snapshot('mine')).account).toBe(mine.account.id);
  await mine.seedEvaluation({ spec: SPEC });
  await mine.clock.advance(60);
  await other.seedEvaluation({ spec: SPEC });
  await mine.restore('mine');
  expect((await mine.clock.get()).now).toBe('2026-01-01T00:00:00.000Z');
  const list = async (a: typeof mine) =>
    (
      (await (await fetch(`${a.apiUrl}/evaluations`, { headers: a.headers })).json()) as {
        data: unknown[];
      }
    ).data;
  expect(await list(mine)).toEqual([]);
  expect(await list(other)).toHaveLength(1);
  await emu.control.deleteSnapshot('mine');
});

test('startEmulator({snapshot}) starts from a file, with the seed it was saved with', async () => {
  const saver = await startEmulator({ seed: 'abc' });
  const acct = await saver.control.newAccount();
  await acct.seedEvaluation({ spec: SPEC });
  await saver.control.snapshot('seeded');
  const dir = mkdtempSync(join(tmpdir(), 'harness-snapshot-'));
  const file = join(dir, 'seeded.snapshot.json');
  writeFileSync(file, JSON.stringify(await saver.control.downloadSnapshot('seeded')));
  await saver.stop();
  const started = await startEmulator({ snapshot: file });
  try {
    expect(started.emulator.deps.config.seed).toBe('abc');
    const runs = await fetch(`${started.baseUrl}/v1/evaluations`, { headers: acct.headers });
    expect(((await runs.json()) as { data: unknown[] }).data).toHaveLength(1);
  } finally {
    await started.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
