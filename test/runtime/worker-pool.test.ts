/**
 * The settle's worker pool (src/engine/worker-pool.ts) on a worker of the test's own: jobs
 * answered in any number with at most `size` threads, a job whose worker dies run again once in a
 * fresh one, a second death a `WorkerDied` rejection that leaves the pool serving, and `close()`.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { expect, test } from 'vitest';
import { WorkerDied, WorkerPool } from '../../src/engine/worker-pool.js';

const WORKER = new URL('./fixtures/doubling-worker.mjs', import.meta.url);

/** A pool of `size` doubling workers whose jobs marked `dies` kill their worker `deaths` times. */
function doublingPool(size: number, deaths = 0) {
  const shared = new Int32Array(new SharedArrayBuffer(4));
  shared[0] = deaths;
  let started = 0;
  const pool = new WorkerPool(size, () => {
    started += 1;
    return new Worker(WORKER, { workerData: { deaths: shared } });
  });
  return { pool, started: () => started };
}

type Doubled = { doubled: number; threadId: number };

test('answers every job, with at most its size of threads', async () => {
  const { pool, started } = doublingPool(2);
  const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => pool.run<Doubled>({ n })));
  expect(answers.map((a) => a.doubled)).toEqual(Array.from({ length: 20 }, (_, n) => 2 * n));
  expect(new Set(answers.map((a) => a.threadId)).size).toBeLessThanOrEqual(2);
  expect(started()).toBeLessThanOrEqual(2);
  await pool.close();
});

test('a job whose worker dies runs again in a fresh worker', async () => {
  const { pool, started } = doublingPool(1, 1);
  expect(await pool.run<Doubled>({ n: 4, dies: true })).toMatchObject({ doubled: 8 });
  expect(started()).toBe(2);
  await pool.close();
});

test('a job whose worker dies twice rejects with WorkerDied, and the pool serves on', async () => {
  const { pool } = doublingPool(1, 2);
  await expect(pool.run({ n: 1, dies: true })).rejects.toBeInstanceOf(WorkerDied);
  expect(await pool.run<Doubled>({ n: 3 })).toMatchObject({ doubled: 6 });
  await pool.close();
});

test('a job that throws rejects with its message; the worker stays', async () => {
  const { pool, started } = doublingPool(1);
  await expect(pool.run({ throws: 'no such kind' })).rejects.toThrow('no such kind');
  expect(await pool.run<Doubled>({ n: 5 })).toMatchObject({ doubled: 10 });
  expect(started()).toBe(1);
  await pool.close();
});

test('close() ends every worker and rejects the jobs under way and queued', async () => {
  const { pool } = doublingPool(1);
  await pool.run({ n: 1 });
  const queued = [pool.run({ hangs: true }), pool.run({ n: 3 })].map((job) =>
    job.then(
      () => 'answered',
      (err: Error) => err.message,
    ),
  );
  await pool.close();
  expect(pool.threads).toBe(0);
  expect(await Promise.all(queued)).toEqual([
    'the worker pool is closed',
    'the worker pool is closed',
  ]);
  await expect(pool.run({ n: 4 })).rejects.toThrow('closed');
});

test('a worker with no job for idleMs ends; the next job starts another', async () => {
  const shared = new Int32Array(new SharedArrayBuffer(4));
  const workers: Worker[] = [];
  const pool = new WorkerPool(
    1,
    () => {
      workers.push(new Worker(WORKER, { workerData: { deaths: shared } }));
      return workers.at(-1)!;
    },
    1,
  );
  await pool.run({ n: 1 });
  await once(workers[0]!, 'exit');
  expect(pool.threads).toBe(0);
  expect(await pool.run<Doubled>({ n: 2 })).toMatchObject({ doubled: 4 });
  expect(workers).toHaveLength(2);
  await pool.close();
});
