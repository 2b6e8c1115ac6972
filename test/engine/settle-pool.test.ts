/**
 * Issue 36: a settle's CPU-heavy work (a run's end outputs and its archive) runs in worker
 * threads, with the same bytes as on the event loop (DESIGN.md section 2). Every kind played with
 * every end and archive in a worker, then with none, answers byte for byte the same.
 */
import { describe, expect, test } from 'vitest';
import type { SettleWorkers } from '../../src/engine/settle-pool.js';
import { END, KINDS, kindWorld, type Registered, withOutcomes } from './support.js';

/** Plays one script on a kind: a failed run per failure code, then a run that succeeds. */
async function play(registered: Registered, settleWorkers: Partial<SettleWorkers>) {
  // A cache of 1 byte holds nothing: each download rebuilds on the event loop and checks the
  // digest the settle published.
  const w = kindWorld(registered, { seed: '7', settleWorkers, archiveCacheBytes: 1 });
  const texts: string[] = [];
  const ids: string[] = [];
  for (const code of registered.kind.failureCodes) {
    ids.push((await w.create(withOutcomes(w.body, [{ fail: code }]))).id);
    texts.push(JSON.stringify(await w.advance(END)));
  }
  const run = await w.create({ ...w.body, label: 'same' });
  texts.push(JSON.stringify(await w.advance(END)));
  const reads = [w.path('list'), w.path('files', run.id)];
  for (const id of [...ids, run.id])
    reads.push(w.path('get', id), `${w.path('logs', id)}?limit=5000`);
  reads.push('/v1/events?limit=100');
  for (const path of reads) texts.push((await w.emu.api('GET', path)).text);
  const archive = await w.archive(run.id);
  expect(archive.status).toBe(200);
  return { texts, archive: archive.bytes, done: w.emu.emulator.deps.engine.settlePool.stats() };
}

describe.each(KINDS)('%s', (_name, registered) => {
  test('with every end and archive in a worker, every answer, event and archive is the same as without', async () => {
    const pooled = await play(registered, { threads: 1, minSteps: 0 });
    const plain = await play(registered, { threads: 0 });
    expect(pooled.texts).toEqual(plain.texts);
    expect(Buffer.compare(pooled.archive, plain.archive)).toBe(0);
    // Each failed run's end, the succeeded one's, its archive, and the reads' logs and rebuilds.
    const ends = registered.kind.failureCodes.length + 1;
    expect(pooled.done.worker).toBeGreaterThan(ends + 1);
    expect(pooled.done).toMatchObject({ loop: 0, failed: 0 });
    expect(plain.done).toMatchObject({ worker: 0, failed: 0 });
  });
});
