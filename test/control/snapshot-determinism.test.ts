/**
 * DESIGN.md section 1.2 across a restore: after `POST /_control/snapshots/{name}/restore`, the
 * same requests give byte for byte the answers (ids, bodies, archives, faults drawn, replays,
 * rate limits, request ids) they gave after the save; and so does an emulator started from the
 * downloaded file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createEmulator } from '../../src/tools/emulator.js';
import { testEmulator } from '../helpers.js';
import { buildWorld, call, type Requester, script } from './snapshot-world.js';

const dir = mkdtempSync(join(tmpdir(), 'snapshot-determinism-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const requester = (emu: { app: { request: Requester } }): Requester => emu.app.request;

test('the same requests after a restore answer byte for byte as after the save', async () => {
  const emu = testEmulator({ scenario: 'every-kind', webhooks: false });
  const request = requester(emu);
  const ids = await buildWorld(request);
  await call(request, 'POST', '/_control/snapshots', { name: 'base' });
  const first = await script(request, ids);
  const restored = await request('/_control/snapshots/base/restore', { method: 'POST' });
  expect(restored.status).toBe(200);
  const again = await script(request, ids);
  expect(again).toEqual(first);
  // Without a restore, the same script meets another world: new ids, used-up faults.
  expect(await script(request, ids)).not.toEqual(first);
  // The script saw what it is about: a drawn fault, a skip-then-fire rule, a replay, a 429.
  const statuses = first.map((e) => `${e.call} ${e.status}`);
  expect(statuses).toContain(`GET /v1/evaluations/${ids.evaluation} 502`);
  expect(statuses).toContain(`GET /v1/evaluations/${ids.evaluation} 200`);
  expect(statuses.filter((s) => s === 'GET /v1/keys/me 429')).toHaveLength(4);
  expect(
    first.some((e) => e.headers.some(([h, v]) => h === 'idempotent-replayed' && v === 'true')),
  ).toBe(true);
  expect(statuses.filter((s) => s.endsWith('/archive 200'))).toHaveLength(2);
  emu.emulator.close();
});

test('restoring twice, or after a full reset, gives the same answers again', async () => {
  const emu = testEmulator({ scenario: 'every-kind', webhooks: false });
  const request = requester(emu);
  const ids = await buildWorld(request);
  await call(request, 'POST', '/_control/snapshots', { name: 'base' });
  const first = await script(request, ids);
  await call(request, 'POST', '/_control/reset');
  await call(request, 'POST', '/_control/snapshots/base/restore');
  expect(await script(request, ids)).toEqual(first);
  await call(request, 'POST', '/_control/snapshots/base/restore');
  expect(await script(request, ids)).toEqual(first);
  emu.emulator.close();
});

test('an emulator started from the downloaded file answers as the one that saved it', async () => {
  const emu = testEmulator({ scenario: 'every-kind', webhooks: false, seed: 'seven' });
  const request = requester(emu);
  const ids = await buildWorld(request);
  await call(request, 'POST', '/_control/snapshots', { name: 'base' });
  const first = await script(request, ids);
  const file = join(dir, 'base.snapshot.json');
  writeFileSync(file, await (await request('/_control/snapshots/base/download')).text());
  // Its seed comes with the file: none is given here.
  const started = createEmulator({ snapshot: file, webhooks: false, clock: 'manual' });
  expect(started.deps.config.seed).toBe('seven');
  expect(started.startedFrom).toBe('base');
  expect(await script(requester(started), ids)).toEqual(first);
  const listed = await call(requester(started), 'GET', '/_control/snapshots');
  expect(listed.data.map((s: { name: string }) => s.name)).toEqual(['base']);
  expect(() => createEmulator({ snapshot: file, seed: '0' })).toThrow(
    /saved with seed 'seven' and this emulator runs with seed '0'/,
  );
  started.close();
  emu.emulator.close();
});
