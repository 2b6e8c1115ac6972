/**
 * Archives are not stored (issue 12 item 4): the store keeps built ones in a bounded cache and a
 * read that misses rebuilds the archive from the run. The rebuilt bytes must be the ones built
 * at success, whose SHA-256 the run published as `download.sha256`, for every run kind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator.js';
import { REGISTERED_KINDS } from '../../src/kinds/index.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, testEmulator } from '../helpers.js';
import { KIND_BODIES as BODIES, listArchive, raw, sha256 } from './support.js';

const AUTH = { authorization: `Bearer ${DEFAULT_SECRET}` };

/**
 * One run of each kind on the default account: half fail their first attempt and are resumed,
 * so rebuilds cover a log that a resume replaced (the first `kinds` registered, or all). Answers id,
 * archive path and published download.
 */
async function succeededRuns(
  emu: ReturnType<typeof testEmulator>,
  kinds: number = REGISTERED_KINDS.length,
) {
  const created = [];
  for (const [i, { kind }] of REGISTERED_KINDS.slice(0, kinds).entries()) {
    const body = BODIES[kind.name];
    if (!body) throw new Error(`no create body for the kind ${kind.name}: add one to BODIES`);
    const outcomes = i % 2 ? [{ fail: 'interrupted' }] : [];
    const run = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/runs`, {
      kind: kind.name,
      ...body,
      outcomes,
    });
    created.push({
      id: run.id as string,
      base: `/v1/${kind.collection}/${run.id}`,
      failsFirst: i % 2,
    });
  }
  const advance = () =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 86_400 });
  await advance();
  for (const run of created.filter((r) => r.failsFirst)) {
    const resumed = await emu.api('POST', `${run.base}/resume`);
    expect(resumed.status, resumed.text).toBe(202);
  }
  await advance();
  const runs = [];
  for (const run of created) {
    const body = (await emu.api('GET', run.base)).json;
    expect(body.status, run.id).toBe('succeeded');
    runs.push({ ...run, download: body.download as { sha256: string; bytes: number } });
  }
  return runs;
}

/**
 * An emulator with the default cache and `succeededRuns` on it, built once for the file: the tests
 * only read it (its archives, cached, are what a rebuilt one must equal).
 */
let kept:
  | Promise<{
      emu: ReturnType<typeof testEmulator>;
      runs: Awaited<ReturnType<typeof succeededRuns>>;
    }>
  | undefined;
function keptWorld() {
  kept ??= (async () => {
    const emu = testEmulator();
    return { emu, runs: await succeededRuns(emu) };
  })();
  return kept;
}

const archiveOf = (emu: ReturnType<typeof testEmulator>, base: string, headers = {}) =>
  raw(emu, `${base}/archive`, { headers: { ...AUTH, ...headers } });

test('with a budget too small for any archive, every kind serves a rebuilt archive byte-identical to the one published', async () => {
  const { emu: kept, runs: same } = await keptWorld();
  const rebuilt = testEmulator({ archiveCacheBytes: 1 });
  const runs = await succeededRuns(rebuilt);
  expect(runs.map((r) => r.download)).toEqual(same.map((r) => r.download));
  expect(rebuilt.emulator.deps.store.archives.stats()).toMatchObject({ archives: 0, bytes: 0 });
  for (const [i, run] of runs.entries()) {
    const first = await archiveOf(rebuilt, run.base);
    const again = await archiveOf(rebuilt, run.base);
    const cached = await archiveOf(kept, same[i]!.base);
    expect(first.status, run.id).toBe(200);
    expect(sha256(first.bytes)).toBe(run.download.sha256);
    expect(first.bytes.length).toBe(run.download.bytes);
    expect(first.headers.get('etag')).toBe(`"${run.download.sha256}"`);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(cached.bytes.equals(first.bytes)).toBe(true);
    expect(listArchive(first.bytes)).toEqual(listArchive(cached.bytes));
  }
});

test('a Range read of an evicted archive answers the same bytes as of a cached one', async () => {
  const {
    emu: kept,
    runs: [same],
  } = await keptWorld();
  const rebuilt = testEmulator({ archiveCacheBytes: 1 });
  const [run] = await succeededRuns(rebuilt, 1);
  const part = await archiveOf(rebuilt, run!.base, { range: 'bytes=10-99' });
  const whole = await archiveOf(kept, same!.base);
  expect(part.status).toBe(206);
  expect(part.bytes.equals(whole.bytes.subarray(10, 100))).toBe(true);
});

test('the cache keeps the most recently read archives within its budget and rebuilds the others', async () => {
  const sizes = (await keptWorld()).runs.map((r) => r.download.bytes);
  // Room for the two largest archives, not for all of them.
  const budget = [...sizes]
    .sort((a, b) => b - a)
    .slice(0, 2)
    .reduce((a, b) => a + b, 0);
  const emu = testEmulator({ archiveCacheBytes: budget });
  const runs = await succeededRuns(emu);
  const { archives } = emu.emulator.deps.store;
  expect(archives.stats().bytes).toBeLessThanOrEqual(budget);
  expect(archives.stats().archives).toBeLessThan(runs.length);
  for (const run of [...runs, ...runs.reverse()]) {
    const res = await archiveOf(emu, run.base);
    expect(sha256(res.bytes)).toBe(run.download.sha256);
    expect(archives.get(run.id)?.sha256).toBe(run.download.sha256);
    expect(archives.stats().bytes).toBeLessThanOrEqual(budget);
  }
});

function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-emulator-archive-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'world.db');
}

test('after a restart on --db, runs that succeeded before serve the same archives', async () => {
  const db = dbFile();
  const options: EmulatorOptions = { db };
  const first = testEmulator(options);
  const runs = await succeededRuns(first);
  const before = [];
  for (const run of runs) before.push((await archiveOf(first, run.base)).bytes);
  first.emulator.close();
  const second = testEmulator(options);
  onTestFinished(() => second.emulator.close());
  for (const [i, run] of runs.entries()) {
    const res = await archiveOf(second, run.base);
    expect(res.status, run.id).toBe(200);
    expect(res.bytes.equals(before[i]!)).toBe(true);
    expect(sha256(res.bytes)).toBe(run.download.sha256);
  }
});
