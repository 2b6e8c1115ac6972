/**
 * A small pool of worker threads running one script, one job per worker at a time, jobs first
 * come first served. Workers start when a job needs one, are unreferenced while idle (an idle pool
 * keeps no process alive) and end after `idleMs` of wall time without a job, giving their memory
 * back. A job whose worker dies (a crash, running out of memory, `terminate()`) runs once more in
 * a fresh worker; dying twice rejects it with `WorkerDied`.
 */
import type { Worker } from 'node:worker_threads';

/** What a worker answers for a job: its value, or the message of what it threw. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };

const CLOSED = 'the worker pool is closed';

/** A job's worker exited before answering, twice. */
export class WorkerDied extends Error {}

interface Job {
  id: number;
  input: unknown;
  tries: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** Ends the idle worker. */
  retire?: ReturnType<typeof setTimeout>;
}

/** How long a worker waits for its next job before it ends. */
export const IDLE_MS = 30_000;

/**
 * @example const pool = new WorkerPool(2, () => new Worker(url)); await pool.run({ n: 1 })
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  /** `spawn` makes a worker that answers each `{id, input}` message with a `WorkerReply`. */
  constructor(
    readonly size: number,
    private readonly spawn: () => Worker,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Runs `input` in a worker; resolves with its value, rejects with what it threw. */
  run<T>(input: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new Error(CLOSED));
    return new Promise<T>((resolve, reject) => {
      const job = { id: this.nextId++, input, tries: 0, reject };
      this.queue.push({ ...job, resolve: resolve as (value: unknown) => void });
      this.dispatch();
    });
  }

  /** Terminates every worker; jobs queued or under way reject. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error(CLOSED));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  /** Workers alive now (they start on demand and leave when they die). */
  get threads(): number {
    return this.slots.length;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.job === null) ?? this.start();
      if (!slot) return;
      const job = this.queue.shift()!;
      clearTimeout(slot.retire);
      slot.job = job;
      job.tries += 1;
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, input: job.input });
    }
  }

  /** A new worker, when the pool has room for one. */
  private start(): Slot | undefined {
    if (this.closed || this.slots.length >= this.size) return undefined;
    const slot: Slot = { worker: this.spawn(), job: null };
    this.slots.push(slot);
    slot.worker.on('message', (reply: WorkerReply) => this.answered(slot, reply));
    // The reason a worker dies comes with its exit; an 'error' event without a listener throws.
    slot.worker.on('error', () => undefined);
    slot.worker.on('exit', () => this.died(slot));
    return slot;
  }

  private answered(slot: Slot, reply: WorkerReply): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    slot.job = null;
    slot.worker.unref();
    if (reply.ok) job.resolve(reply.value);
    else job.reject(new Error(reply.error));
    this.dispatch();
    if (slot.job === null) {
      slot.retire = setTimeout(() => void slot.worker.terminate(), this.idleMs);
      slot.retire.unref();
    }
  }

  private died(slot: Slot): void {
    clearTimeout(slot.retire);
    this.slots.splice(this.slots.indexOf(slot), 1);
    const job = slot.job;
    slot.job = null;
    if (job && this.closed) job.reject(new Error(CLOSED));
    else if (job && job.tries < 2) this.queue.unshift(job);
    else if (job) job.reject(new WorkerDied(`a worker thread exited twice running job ${job.id}`));
    this.dispatch();
  }
}
