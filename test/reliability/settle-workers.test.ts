import type { Worker } from 'node:worker_threads';
import { afterEach, expect, test, vi } from 'vitest';
import { SettlePool } from '../../src/engine/settle-pool.js';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';
import { extractArchive, sha256 } from '../runtime/support.js';

const LONG = { spec: { path: 'specs/long.yaml', name: 'long' }, options: { episodes: 2000 } };
type Emu = ReturnType<typeof testEmulator>;

/** A 2,000-episode run on the default account, advanced to its end; its body and archive. */
async function longRun(emu: Emu) {
  const created = await emu.api('POST', '/v1/evaluations', { body: LONG });
  expect(created.status).toBe(201);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 3600 });
  const run = (await emu.api('GET', `/v1/evaluations/${created.json.id}`)).json;
  expect(run.status).toBe('succeeded');
  return { run, archive: await download(emu, run.id) };
}

async function download(emu: Emu, id: string) {
  const res = await emu.app.request(`/v1/evaluations/${id}/archive`, {
    headers: { authorization: 'Bearer svc_test_emulator_default' },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The emulator's pool replaced by one whose workers are ended as they start, `times` times. */
function killWorkers(emu: Emu, times: number) {
  const { deps } = emu.emulator;
  const { known, spawn } = deps.engine.settlePool.worker;
  let started = 0;
  deps.engine.settlePool = new SettlePool(
    deps.kinds.byName,
    deps.catalog,
    deps.engine.settlePool.options,
    {
      known,
      spawn: () => {
        const worker: Worker = spawn();
        started += 1;
        if (started <= times) worker.once('online', () => void worker.terminate());
        return worker;
      },
    },
  );
  return { started: () => started };
}

const plainArchive = async () =>
  (await longRun(testEmulator({ settleWorkers: { threads: 0 } }))).archive;

afterEach(() => {
  vi.restoreAllMocks();
});

test('an archive built in a worker downloads and extracts, and a rebuild after eviction is the same', async () => {
  const emu = testEmulator({ settleWorkers: { threads: 1 } });
  const { run, archive } = await longRun(emu);
  expect(emu.emulator.deps.engine.settlePool.stats()).toMatchObject({
    worker: 2,
    loop: 0,
    failed: 0,
  });
  expect(sha256(archive)).toBe(run.download.sha256);
  const files = extractArchive(archive);
  expect([...files.keys()].filter((p) => p.includes('/episodes/'))).toHaveLength(2000);
  expect(Buffer.compare(archive, await plainArchive())).toBe(0);
  emu.emulator.deps.store.archives.clear();
  expect(Buffer.compare(await download(emu, run.id), archive)).toBe(0);
});

test('a worker that dies mid-job is replaced and the job run again, the bytes unchanged', async () => {
  const emu = testEmulator({ settleWorkers: { threads: 1 } });
  const killed = killWorkers(emu, 1);
  const { archive } = await longRun(emu);
  expect(killed.started()).toBe(2);
  expect(emu.emulator.deps.engine.settlePool.stats()).toMatchObject({
    worker: 2,
    loop: 0,
    failed: 0,
  });
  expect(Buffer.compare(archive, await plainArchive())).toBe(0);
});

test('when no worker stays alive, the work is done on the event loop and other accounts are served', async () => {
  const emu = testEmulator({ settleWorkers: { threads: 1 } });
  killWorkers(emu, Number.POSITIVE_INFINITY);
  const warned = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const other = await emu.control('POST', '/accounts', {});
  const created = await emu.api('POST', '/v1/evaluations', { body: LONG });
  const advance = emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, {
    seconds: 3600,
  });
  const me = await emu.api('GET', '/v1/keys/me', { secret: other.key.secret });
  expect(me.status).toBe(200);
  await advance;
  const run = (await emu.api('GET', `/v1/evaluations/${created.json.id}`)).json;
  expect(run.status).toBe('succeeded');
  const archive = await download(emu, run.id);
  expect(emu.emulator.deps.engine.settlePool.stats()).toMatchObject({
    worker: 0,
    loop: 2,
    failed: 2,
  });
  expect(warned).toHaveBeenCalledTimes(1);
  expect(Buffer.compare(archive, await plainArchive())).toBe(0);
});
