import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emu-restart-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('fault rules come back after a restart on a --db file, with their counters', async () => {
  const db = join(dir, 'world.db');
  const first = testEmulator({ db });
  const rule = await first.control('POST', '/faults', {
    match: { operation: 'getCurrentKey' },
    respond: { status: 503 },
    skip: 1,
    times: 3,
  });
  expect((await first.api('GET', '/v1/keys/me')).status).toBe(200); // skipped
  expect((await first.api('GET', '/v1/keys/me')).status).toBe(503); // hit 1
  first.emulator.close();

  const second = testEmulator({ db });
  expect(second.emulator.scenarioApplied).toBe(false);
  const { data } = await second.control('GET', '/faults');
  expect(data).toHaveLength(1);
  expect(data[0]).toMatchObject({ id: rule.id, hits: 1, skipped: 1, remaining: 2 });
  expect((await second.api('GET', '/v1/keys/me')).status).toBe(503);
  expect((await second.control('GET', '/faults')).data[0].hits).toBe(2);
  await second.control('DELETE', `/faults/${rule.id}`);
  second.emulator.close();

  const third = testEmulator({ db });
  expect((await third.control('GET', '/faults')).data).toEqual([]);
  third.emulator.close();
});

test('the request journal and GET /v1/requests survive a restart on a --db file', async () => {
  const db = join(dir, 'world.db');
  const first = testEmulator({ db });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    ids.push((await first.api('GET', '/v1/keys/me')).headers.get('x-request-id')!);
  }
  first.emulator.close(); // flushes the unwritten batch

  const second = testEmulator({ db, journalSize: 2 });
  const journal = await second.control('GET', '/requests');
  expect(journal.data.map((e: { request_id: string }) => e.request_id)).toEqual(ids.slice(1));
  const listed = await second.api('GET', '/v1/requests');
  expect(listed.status).toBe(200);
  const listedIds = listed.json.data.map((r: { id: string }) => r.id);
  expect(listedIds.slice(-2)).toEqual([ids[2], ids[1]]);
  second.emulator.close();
});

test('journal entries reach the file behind the request, without a close (as before a kill -9)', async () => {
  const db = join(dir, 'world.db');
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const first = testEmulator({ db });
    const id = (await first.api('GET', '/v1/keys/me')).headers.get('x-request-id');
    vi.advanceTimersByTime(250); // the batch timer fires; first is never closed
    const second = testEmulator({ db });
    const { data } = await second.control('GET', '/requests');
    expect(data.map((e: { request_id: string }) => e.request_id)).toEqual([id]);
    second.emulator.close();
    first.emulator.close();
  } finally {
    vi.useRealTimers();
  }
});

test("GET /v1/requests shows only the last 30 days of the caller's virtual clock", async () => {
  const { api, control } = testEmulator();
  const old = (await api('GET', '/v1/keys/me')).headers.get('x-request-id');
  await control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 31 * 86_400 });
  const recent = (await api('GET', '/v1/keys/me')).headers.get('x-request-id');
  const listed = await api('GET', '/v1/requests');
  const ids = listed.json.data.map((r: { id: string }) => r.id);
  expect(ids).toContain(recent);
  expect(ids).not.toContain(old);
});

test('a full journal of requests with 15 KB paths stays small: journal-size entries, paths cut at 2048 chars', async () => {
  // A small journal filled past its size shows both bounds; the default (10,000) would only
  // take longer to fill.
  const { api, control } = testEmulator({ journalSize: 5 });
  const long = `/v1/sim_runs/${'x'.repeat(15_000)}/logs`;
  for (let i = 0; i < 8; i++) await api('GET', long);
  const { data } = await control('GET', '/requests?limit=1000');
  const cut = `${long.slice(0, 2048)}...[truncated ${long.length - 2048} chars]`;
  expect(data.map((e: { path: string }) => e.path)).toEqual(Array(5).fill(cut));
});
