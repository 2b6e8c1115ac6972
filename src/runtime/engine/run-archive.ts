/** A succeeded run's archive: cached, or rebuilt byte for byte, checked against its sha256. */
import { buildArchive } from '../../domain/build-archive.js';
import type { RunRecord, RunRequest } from '../../domain/records.js';
import type { RunKind } from '../../domain/run-kind.js';
import { attemptLog } from '../../domain/run-log.js';
import type { CachedArchive } from '../../store/archive-cache.js';
import type { Deps } from '../deps.js';

/**
 * The archive of a succeeded `record`; undefined when it has none (seeded). A rebuild that is not
 * the published one throws a plain Error (a 500): a bug, never an answer.
 * @example const archive = runArchive(deps, run); archive?.sha256 === run.state.download?.sha256
 */
export function runArchive(deps: Deps, record: RunRecord): CachedArchive | undefined {
  const download = record.state.download;
  if (!download || record.state.given_files || !record.state.run) return undefined;
  const cached = deps.store.archives.get(record.id);
  // A stale entry (a transaction that built it rolled back) shows as another digest.
  if (cached?.sha256 === download.sha256) return cached;
  const rebuilt = rebuild(deps, record);
  const { bytes, sha256 } = rebuilt;
  if (sha256 !== download.sha256 || bytes.length !== download.bytes) {
    throw new Error(
      `run ${record.id}: rebuilt archive ${sha256} (${bytes.length} B) differs from the ` +
        `published ${download.sha256} (${download.bytes} B)`,
    );
  }
  deps.store.archives.put(record.id, rebuilt);
  return rebuilt;
}

/** What `finish` in apply-due.ts builds, from what the run stored when it succeeded. */
function rebuild(deps: Deps, record: RunRecord): CachedArchive {
  const kind = deps.kinds.byName[record.kind];
  const run = record.state.run!;
  const at = Date.parse(record.state.completed_at ?? '');
  if (!kind || !Number.isFinite(at)) {
    throw new Error(`run ${record.id}: cannot rebuild the archive of a ${record.kind} run`);
  }
  const ctx = kind.context(record.request, run.outcome, record.id, deps.catalog);
  const steps = run.schedule.stepsAtEnd;
  const { result } = kind.success(ctx, steps);
  // Nothing is logged after success (a resume starts a new log), so this is the log it had.
  const logs = runLogAt(kind, record, ctx, at);
  return buildRunArchive(kind, record.id, { ctx, result, steps, logs }, at);
}

/** The log of the run's attempt as of `at`, derived from the attempt. */
export function runLogAt<Ctx>(
  kind: RunKind<RunRequest, Ctx>,
  record: RunRecord,
  ctx: Ctx,
  at: number,
): string[] {
  return attemptLog(kind, record.request, record.state.run!, ctx, at);
}

/** The archive `finish` (apply-due.ts) builds at success, and a rebuild builds again. */
export function buildRunArchive<Ctx>(
  kind: RunKind<RunRequest, Ctx>,
  runId: string,
  success: { ctx: Ctx; result: Record<string, unknown>; steps: number; logs: string[] },
  at: number,
): ReturnType<typeof buildArchive> {
  const { ctx, result, steps, logs } = success;
  return buildArchive(runId, kind.archive(ctx, result, steps, logs), at);
}
