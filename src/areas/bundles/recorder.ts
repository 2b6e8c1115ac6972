/**
 * The recording a replay bundle is made of (DESIGN.md section 8 "Replay bundles"): a copy of the
 * world at a mark, then every call since with the answer it got, and the webhook attempts. It is
 * off until a mark (`POST /_control/bundle/mark`, or with `--bundle-record` the start and each
 * full reset), so a call costs one test when nothing is recorded; it holds at most
 * `--bundle-limit` bytes of calls, and stops at that bound (the bundle then says so).
 */
import { toTimestamp, wallNow } from '../../core/clock.js';
import type { Database } from '../../core/sqlite/sqlite.js';
import type { Deps } from '../../engine/deps.js';
import type { HeldState } from '../snapshots/snapshot-file-contract.js';
import { createSnapshotTables, type SnapshotTables } from '../snapshots/snapshot-tables.js';
import { copyWorld, worldAtRest } from '../snapshots/snapshots.js';
import type { AttemptRef, WebhookHooks } from '../webhooks/deliveries.js';
import type { AttemptResult } from '../webhooks/send.js';
import { digestedAnswer, type HeldAnswer, heldBytes } from './answer.js';
import type { AttemptEvent, CallKind, MarkReason, RecordedCall } from './bundle-contract.js';
import { CallStore, type PendingCall, type StoredCall } from './call-store.js';

/** Where the recording starts: the world's copy (none when only calls are recorded). */
export interface Mark {
  reason: MarkReason;
  wallAt: string;
  /** The copy's tag in the recording's tables; null when nothing was copied. */
  tag: string | null;
  /** What the copy keeps beside its tables; its journal is with them. */
  state: HeldState | null;
  counts: Record<string, number>;
  storedBytes: number;
}

/** What each recorded call is counted for against the limit, besides its path, headers and body. */
const CALL_OVERHEAD = 400;

export class BundleRecorder {
  /** The current mark; null while nothing is recorded. */
  mark: Mark | null = null;
  /** The calls begun since the mark (answered or not). */
  calls = 0;
  readonly attempts: AttemptEvent[] = [];
  /** Bytes the recorded calls take (about their JSON); past `limitBytes` the recording stops. */
  bytes = 0;
  /** The number of the call that passed the limit; nothing after it is recorded. */
  overflowAt: number | null = null;
  private tablesOf: SnapshotTables | null = null;
  private tags = 0;
  /** Marks taken so far: a call is stored only under the mark it began under. */
  private marks = 0;
  /** The answered calls since the mark. */
  private readonly store = new CallStore();
  /** The calls begun and not yet answered (a mark keeps them: they are still under way). */
  private readonly open = new Set<PendingCall>();
  private attemptsStarted = 0;
  private attemptsAnswered = 0;

  constructor(
    private readonly db: Database,
    /** `--bundle-record`: mark at the start and at each full reset. */
    readonly auto: boolean,
    /** `--bundle-limit`, in bytes. */
    readonly limitBytes: number,
  ) {}

  /** Whether a call arriving now is recorded. */
  get recording(): boolean {
    return this.mark !== null && this.overflowAt === null;
  }

  /** The recording's own copies, apart from the snapshots' shelf and its limits. */
  get tables(): SnapshotTables {
    this.tablesOf ??= createSnapshotTables(this.db, 'bundle_marks');
    return this.tablesOf;
  }

  /** The hooks that count webhook attempts (WebhookDispatcher.hooks). */
  webhookHooks(): WebhookHooks {
    return {
      started: (ref) => this.attempt('started', ref),
      answered: (ref, result) => this.attempt('answered', ref, result),
    };
  }

  /**
   * Marks now: the world copied (unless `copy` is false: a replay records calls only), and the
   * calls and attempts recorded so far dropped. Waits until no settle is in progress.
   */
  async markNow(deps: Deps, reason: MarkReason, copy = true): Promise<Mark> {
    await worldAtRest(deps);
    return this.markAtRest(deps, reason, copy);
  }

  /** `markNow` for a world known to be at rest (at start). */
  markAtRest(deps: Deps, reason: MarkReason, copy = true): Mark {
    this.dropCopy();
    this.marks += 1;
    const tag = copy ? `m${++this.tags}` : null;
    const copied = tag ? copyWorld(deps, this.tables, tag, null) : null;
    this.mark = {
      reason,
      wallAt: toTimestamp(wallNow()),
      tag,
      state: copied?.state ?? null,
      counts: copied?.counts ?? {},
      storedBytes: copied?.storedBytes ?? 0,
    };
    this.calls = 0;
    this.store.clear();
    this.attempts.length = 0;
    this.bytes = 0;
    this.overflowAt = null;
    this.attemptsStarted = 0;
    this.attemptsAnswered = 0;
    return this.mark;
  }

  /** A call arriving; undefined when it is not recorded (nothing marked, or past the limit). */
  begin(kind: CallKind, method: string, path: string): PendingCall | undefined {
    if (!this.recording) return undefined;
    const call: PendingCall = {
      n: ++this.calls,
      mark: this.marks,
      kind,
      method,
      path,
      headers: [],
      body: null,
      account: null,
      creates_account: null,
      overlapped: this.open.size > 0,
      startedBefore: this.attemptsStarted,
      answeredBefore: this.attemptsAnswered,
    };
    // Only the calls under way are looked at: scanning every recorded call made each call cost
    // as much as the recording was long.
    for (const other of this.open) other.overlapped = true;
    this.open.add(call);
    return call;
  }

  /** The call was answered (or dropped): stored, counted against the limit, its attempts noted. */
  end(call: PendingCall, answer: HeldAnswer): void {
    this.open.delete(call);
    // A mark taken meanwhile dropped it.
    if (call.mark !== this.marks) return;
    this.store.add(call, this.attemptsStarted, this.attemptsAnswered, answer);
    this.bytes += CALL_OVERHEAD + call.path.length + (call.body?.length ?? 0) + heldBytes(answer);
    for (const text of call.headers) this.bytes += text.length + 2;
    if (this.bytes > this.limitBytes && this.overflowAt === null) this.overflowAt = call.n;
  }

  /**
   * The recorded calls that were answered, in arrival order, up to the limit: read back from the
   * store and digested at each read, so that nothing of them stays on the heap after it.
   */
  finishedCalls(): RecordedCall[] {
    const last = this.overflowAt ?? this.calls;
    const calls: RecordedCall[] = [];
    for (const stored of this.store.calls()) if (stored.n <= last) calls.push(recordedCall(stored));
    return calls.sort((a, b) => a.n - b.n);
  }

  private attempt(event: 'started' | 'answered', ref: AttemptRef, result?: AttemptResult): void {
    if (!this.recording) return;
    if (event === 'started') this.attemptsStarted += 1;
    else this.attemptsAnswered += 1;
    this.attempts.push({
      event,
      delivery: ref.delivery,
      series: ref.series,
      number: ref.number,
      ...(result
        ? {
            status_code: result.statusCode,
            error: result.error,
            response_body: result.responseBody,
          }
        : {}),
    });
  }

  /** Drops the current mark's copy. */
  private dropCopy(): void {
    if (this.mark?.tag) this.tables.drop(this.mark.tag, null);
  }
}

/** A call as `calls.jsonl` holds it (its keys in this order), its answer masked and digested. */
function recordedCall(call: StoredCall): RecordedCall {
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < call.headers.length; i += 2)
    headers.push([call.headers[i]!, call.headers[i + 1]!]);
  return {
    n: call.n,
    kind: call.kind,
    method: call.method,
    path: call.path,
    headers,
    body: call.body,
    account: call.account,
    creates_account: call.creates_account,
    overlapped: call.overlapped,
    webhooks: {
      before: { started: call.startedBefore, answered: call.answeredBefore },
      after: { started: call.startedAfter, answered: call.answeredAfter },
    },
    answer: digestedAnswer(call.answer),
  };
}
