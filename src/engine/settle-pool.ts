/**
 * Where a settle's CPU-heavy work runs (DESIGN.md section 2): a run's end outputs and its archive
 * go to a small pool of worker threads when the run has enough steps to hold the event loop and
 * its kind is a registered one (a worker knows those only); anything else, and any job the pool
 * fails twice, runs on the event loop. The bytes are the same either way (settle-jobs.ts).
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gzip } from 'node:zlib';
import { archiveOf, GZIP_OPTIONS, tarOf } from '../core/archive.js';
import type { Catalog } from '../core/catalog.js';
import type { RunRecord } from './records.js';
import type { RegisteredKind, RunKind } from './run-kind.js';
import {
  type ArchiveOutputs,
  archiveEntries,
  type EndOutputs,
  endOutputs,
  type JobRun,
  logTail,
  type SettleJob,
} from './settle-jobs.js';
import type { CachedArchive } from './store/archive-cache.js';
import { packListing } from './store/file-listing.js';
import { WorkerPool } from './worker-pool.js';

export interface SettleWorkers {
  /** Worker threads at most; 0 runs everything on the event loop. */
  threads: number;
  /** Steps from which a run's end and archive go to a worker. */
  minSteps: number;
}

/** One core for the event loop, the rest (at most two) for the pool; at least one. */
export const defaultSettleThreads = () => Math.max(1, Math.min(2, availableParallelism() - 1));
/** Below this, a run's end and archive take a few milliseconds: less than a worker's round trip. */
export const DEFAULT_MIN_STEPS = 100;

const gzipAsync = promisify(gzip);

/**
 * The worker threads' side, which the emulator gives (a worker's entry imports the registered
 * kinds, a layer above the engine): the kinds a worker knows, and how one starts.
 */
export interface SettleWorkerSide {
  /** The registered kinds by name: a run of another kind (a test's own) stays on the event loop. */
  known: Readonly<Record<string, RunKind>>;
  spawn: () => Worker;
}

/** What the pool gives a worker at its start (`workerData`). */
export interface SettleWorkerData {
  catalog: Catalog;
}

/**
 * The emulator's pool, `given` settings over the defaults; no thread starts before a job needs one.
 * `worker`: the registered kinds, and a module beside which the worker's entry is (`settleWorker`).
 * @example createSettlePool(kinds.byName, catalog, { threads: 0 }, { known, beside }) // all here
 */
export function createSettlePool(
  kinds: Readonly<Record<string, RunKind>>,
  catalog: Catalog,
  given: Partial<SettleWorkers> = {},
  worker: { known: readonly RegisteredKind[]; beside: string },
): SettlePool {
  const threads = given.threads ?? defaultSettleThreads();
  const options = { threads, minSteps: given.minSteps ?? DEFAULT_MIN_STEPS };
  return new SettlePool(kinds, catalog, options, {
    known: Object.fromEntries(worker.known.map(({ kind }) => [kind.name, kind])),
    spawn: settleWorker(worker.beside, catalog),
  });
}

export class SettlePool {
  private readonly pool: WorkerPool;
  private readonly counts = { worker: 0, loop: 0, failed: 0 };
  private closed = false;

  /** `worker.spawn` starts a worker (the emulator's: `settleWorker`). */
  constructor(
    private readonly kinds: Readonly<Record<string, RunKind>>,
    private readonly catalog: Catalog,
    readonly options: SettleWorkers,
    readonly worker: SettleWorkerSide,
  ) {
    this.pool = new WorkerPool(options.threads, worker.spawn);
  }

  /** Whether the run's end and archive go to a worker. */
  takes(record: RunRecord): boolean {
    const run = record.state.run;
    const kind = this.kinds[record.kind];
    return (
      this.options.threads > 0 &&
      run !== null &&
      run !== undefined &&
      run.schedule.stepsAtEnd >= this.options.minSteps &&
      kind !== undefined &&
      this.worker.known[record.kind] === kind
    );
  }

  /** The outputs of the end of the run's attempt (its kind's failure or success). */
  end(record: RunRecord): Promise<EndOutputs> {
    const job = jobRun(record);
    const here = () => endOutputs(this.kindOf(job), job, this.catalog);
    return this.takes(record) ? this.offload({ type: 'end', ...job }, here) : this.counted(here);
  }

  /** The archive of a succeeded run, as `completed_at` has its end; `at` is its entries' mtime. */
  async archive(record: RunRecord): Promise<CachedArchive & { at: number }> {
    const job = jobRun(record);
    const completed = Date.parse(record.state.completed_at ?? '');
    if (!Number.isFinite(completed)) {
      throw new Error(`run ${record.id}: no completion instant for its archive`);
    }
    const here = async (): Promise<ArchiveOutputs> => {
      const { entries, at } = archiveEntries(this.kindOf(job), job, completed, this.catalog);
      const { tar, files } = tarOf(job.id, entries, at);
      // The compression leaves the event loop for zlib's own threads.
      const { bytes, sha256 } = archiveOf(await gzipAsync(tar, GZIP_OPTIONS), files);
      return { bytes, sha256, listing: packListing(files), at };
    };
    const built = this.takes(record)
      ? await this.offload({ type: 'archive', completed, ...job }, here)
      : await this.counted(here);
    // A worker's bytes arrive as a plain Uint8Array over the memory it moved.
    const { buffer, byteOffset, length } = built.bytes;
    return { ...built, bytes: Buffer.from(buffer, byteOffset, length) };
  }

  /** The last `limit` lines of the run's log as of `upTo`, oldest first. */
  log(record: RunRecord, upTo: number, limit: number): Promise<string[]> {
    const job = jobRun(record);
    const here = () => logTail(this.kindOf(job), job, upTo, limit, this.catalog);
    const offloaded = { type: 'log' as const, upTo, limit, ...job };
    return this.takes(record) ? this.offload(offloaded, here) : this.counted(here);
  }

  /** Jobs done in a worker and on the event loop, and jobs the pool failed (then done here). */
  stats() {
    return { ...this.counts, threads: this.pool.threads };
  }

  close(): Promise<void> {
    this.closed = true;
    return this.pool.close();
  }

  private kindOf(job: JobRun): RunKind {
    const kind = this.kinds[job.kind];
    if (!kind) throw new Error(`run ${job.id}: no run kind ${job.kind}`);
    return kind;
  }

  private async counted<T>(here: () => T | Promise<T>): Promise<T> {
    this.counts.loop += 1;
    return here();
  }

  private async offload<T>(job: SettleJob, here: () => T | Promise<T>): Promise<T> {
    try {
      const value = await this.pool.run<T>(job);
      this.counts.worker += 1;
      return value;
    } catch (err) {
      // A closed emulator has nothing left to settle for.
      if (this.closed) throw err;
      this.counts.failed += 1;
      if (this.counts.failed === 1) {
        console.error(
          `svc-emulator: a settle worker failed (${(err as Error).message}); ` +
            'the work it had is done on the event loop',
        );
      }
      return this.counted(here);
    }
  }
}

const jobRun = (record: RunRecord): JobRun => ({
  kind: record.kind,
  id: record.id,
  request: record.request,
  run: record.state.run!,
});

/**
 * How a settle worker starts: `settle-worker.js` beside the module `beside` (`src/emulator.ts`'s
 * URL: dist/settle-worker.js beside the bin's bundle, the CommonJS entries and tsc's library);
 * from src/ (tsx, vitest) `settle-worker.ts` through tsx's loader, which the worker registers for
 * itself.
 * @example settleWorker(import.meta.url, catalog)() // a Worker serving settle jobs
 */
export function settleWorker(beside: string, catalog: Catalog): () => Worker {
  const workerData: SettleWorkerData = { catalog };
  if (!beside.endsWith('.ts')) {
    const entry = new URL('./settle-worker.js', beside);
    return () => new Worker(entry, { workerData });
  }
  // tsx's ES module API (`import` condition), beside the CommonJS one `require` resolves.
  const api = new URL('./index.mjs', pathToFileURL(createRequire(beside).resolve('tsx/esm/api')));
  const entry = JSON.stringify(new URL('./settle-worker.ts', beside).href);
  const boot = `import(${JSON.stringify(api.href)}).then((tsx) => tsx.tsImport(${entry}, ${entry}));`;
  return () => new Worker(boot, { eval: true, workerData });
}
