/**
 * The CPU-heavy work of a settle as pure functions of stored data and the catalog: a run's end
 * outputs (its `result`, or its `error` and `result`) and its archive; and of a read, a long
 * run's log. The event loop runs them, or a worker thread does (settle-worker.ts); the bytes are
 * the same either way.
 */
import { gzipSync } from 'node:zlib';
import { type ArchiveEntry, archiveOf, GZIP_OPTIONS, tarOf } from '../core/archive.js';
import type { Catalog } from '../core/catalog.js';
import { MAX_VIRTUAL_MS, MIN_VIRTUAL_MS } from '../core/clock-mode.js';
import type { RunError } from './contract/run-shapes.js';
import type { RunAttempt, RunRequest, RunState } from './records.js';
import type { RunKind } from './run-kind.js';
import { type PackedListing, packListing } from './store/file-listing.js';
import { attemptLog } from './timeline/log.js';

/** A run as a job needs it: its kind's name, id, request and current attempt. */
export interface JobRun {
  kind: string;
  id: string;
  request: RunRequest;
  run: RunAttempt;
}

export type SettleJob =
  | ({ type: 'end' } & JobRun)
  /** `completed`: the instant the attempt succeeded (`completed_at`), in ms. */
  | ({ type: 'archive'; completed: number } & JobRun)
  /** The last `limit` lines of the attempt's log as of `upTo`. */
  | ({ type: 'log'; upTo: number; limit: number } & JobRun);

/** What the end of an attempt writes into its run. */
export interface EndOutputs {
  error: RunError | null;
  result: RunState['result'];
}

/** A built archive as a worker sends it: the bytes, their SHA-256, the listing; `at` its mtime. */
export interface ArchiveOutputs {
  bytes: Uint8Array;
  sha256: string;
  listing: PackedListing;
  at: number;
}

/**
 * The outputs of the attempt's end: the kind's failure for a failing outcome, else its success.
 * @example endOutputs(kind, job, catalog) // { error: null, result: { run_id, ... } }
 */
export function endOutputs(kind: RunKind, job: JobRun, catalog: Catalog): EndOutputs {
  const { outcome, schedule } = job.run;
  const ctx = kind.context(job.request, outcome, job.id, catalog);
  if ('fail' in outcome) return kind.failure(ctx, outcome, schedule);
  return { error: null, result: kind.success(ctx, schedule.stepsAtEnd).result };
}

/** What a succeeded run's archive holds, as its end had it, and the mtime of its entries. */
export function archiveEntries(
  kind: RunKind,
  job: JobRun,
  completed: number,
  catalog: Catalog,
): { entries: ArchiveEntry[]; at: number } {
  const { run } = job;
  const once = successOnce(kind);
  const ctx = once.context(job.request, run.outcome, job.id, catalog);
  const steps = run.schedule.stepsAtEnd;
  const { result } = once.success(ctx, steps);
  // Nothing is logged after success (a resume starts a new log), so this is the log it had; its
  // closing line is the success above.
  const logs = attemptLog(once, job.request, run, ctx, completed);
  // An older world may hold runs completed outside what a tar header holds: the nearest instant.
  const at = Math.max(MIN_VIRTUAL_MS, Math.min(completed, MAX_VIRTUAL_MS));
  return { entries: once.archive(ctx, result, steps, logs), at };
}

/** `kind` computing `success` once for a context and step count, however often it is asked. */
function successOnce(kind: RunKind): RunKind {
  let last: { ctx: unknown; steps: number; value: ReturnType<RunKind['success']> } | undefined;
  return {
    ...kind,
    success(ctx, steps) {
      if (last && last.ctx === ctx && last.steps === steps) return last.value;
      last = { ctx, steps, value: kind.success(ctx, steps) };
      return last.value;
    },
  };
}

/** The archive of a succeeded run, built here and now (gzip included). */
export function archiveOutputs(
  kind: RunKind,
  job: JobRun,
  completed: number,
  catalog: Catalog,
): ArchiveOutputs {
  const { entries, at } = archiveEntries(kind, job, completed, catalog);
  const { tar, files } = tarOf(job.id, entries, at);
  const { bytes, sha256 } = archiveOf(gzipSync(tar, GZIP_OPTIONS), files);
  return { bytes, sha256, listing: packListing(files), at };
}

/** The last `limit` lines of the attempt's log as of `upTo`, oldest first (run-log.ts). */
export function logTail(
  kind: RunKind,
  job: JobRun,
  upTo: number,
  limit: number,
  catalog: Catalog,
): string[] {
  const ctx = kind.context(job.request, job.run.outcome, job.id, catalog);
  const lines = attemptLog(kind, job.request, job.run, ctx, upTo);
  return lines.length > limit ? lines.slice(lines.length - limit) : lines;
}

/**
 * Runs one job of a worker with the kinds it knows; throws for a kind it does not.
 * @example runJob({ type: 'end', ...jobRun }, kindsByName, catalog)
 */
export function runJob(
  job: SettleJob,
  kinds: Readonly<Record<string, RunKind>>,
  catalog: Catalog,
): EndOutputs | ArchiveOutputs | string[] {
  const kind = kinds[job.kind];
  if (!kind) throw new Error(`no run kind ${job.kind} in this worker`);
  if (job.type === 'end') return endOutputs(kind, job, catalog);
  if (job.type === 'log') return logTail(kind, job, job.upTo, job.limit, catalog);
  return archiveOutputs(kind, job, job.completed, catalog);
}
