/**
 * A `--db` file across restarts (DESIGN.md section 4 "Clock": `realtime` is start + elapsed wall
 * time, `scaled:N` N virtual seconds per wall second): a restarted emulator's virtual now never
 * goes back, and the runs it had finished stay finished.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator.js';
import { DEFAULT_ACCOUNT, NO_TWINS_ACCOUNT, testEmulator } from '../helpers.js';
import { SPEC } from './support.js';

function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-emulator-restart-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'world.db');
}

/** An emulator on `db`, closed when the test ends (or earlier, by the test). */
function open(db: string, options: EmulatorOptions = {}) {
  const emu = testEmulator({ db, ...options });
  let closed = false;
  const close = () => {
    if (!closed) emu.emulator.close();
    closed = true;
  };
  onTestFinished(close);
  return { ...emu, close };
}

const wallSleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const clockOf = async (emu: ReturnType<typeof open>, account: string) =>
  emu.control('GET', `/accounts/${account}/clock`);

test('a scaled clock restarted from --db carries on from where it had got to, never earlier', async () => {
  const db = dbFile();
  const first = open(db);
  await first.control('PUT', `/accounts/${DEFAULT_ACCOUNT}/clock`, { mode: 'scaled:1000' });
  const created = await first.api('POST', '/v1/evaluations', { body: { spec: SPEC } });
  expect(created.status).toBe(201);
  // 20 wall ms are 20 virtual seconds: the default 5-second run is over.
  await wallSleep(20);
  const before = await clockOf(first, DEFAULT_ACCOUNT);
  const run = await first.api('GET', `/v1/evaluations/${created.json.id}`);
  expect(run.json.status).toBe('succeeded');
  first.close();

  const second = open(db);
  const after = await clockOf(second, DEFAULT_ACCOUNT);
  expect(after.mode).toBe('scaled:1000');
  expect(Date.parse(after.now)).toBeGreaterThanOrEqual(Date.parse(before.now));
  const again = await second.api('GET', `/v1/evaluations/${created.json.id}`);
  expect(again.status).toBe(200);
  expect(again.json).toEqual(run.json);
});

test('a scaled clock no clock operation ever touched does not restart from its start', async () => {
  const db = dbFile();
  const first = open(db, { clock: 'scaled:1000' });
  await wallSleep(20);
  const before = await clockOf(first, NO_TWINS_ACCOUNT);
  expect(Date.parse(before.now)).toBeGreaterThan(Date.parse('2026-01-01T00:00:10.000Z'));
  first.close();

  const second = open(db, { clock: 'scaled:1000' });
  const after = await clockOf(second, NO_TWINS_ACCOUNT);
  expect(Date.parse(after.now)).toBeGreaterThanOrEqual(Date.parse(before.now));
});

test('a manual clock restarted from --db is exactly where it was left', async () => {
  const db = dbFile();
  const first = open(db);
  await first.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 90 });
  first.close();
  await wallSleep(5);
  const second = open(db);
  expect(await clockOf(second, DEFAULT_ACCOUNT)).toEqual({
    account_id: DEFAULT_ACCOUNT,
    now: '2026-01-01T00:01:30.000Z',
    mode: 'manual',
  });
});
