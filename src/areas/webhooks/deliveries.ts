/**
 * Webhook deliveries (inferred: the API document shows none): each event to every enabled
 * matching endpoint once its transaction commits, signed per Standard Webhooks, retried at the
 * schedule of schedule.ts on the account's virtual clock. Each endpoint has one queue making its
 * due attempts one at a time, in due order (event order at one instant), in the background: an
 * advance never waits on a receiver, and a slow receiver holds only its own endpoint (turns.ts:
 * attempts share the event loop by account in turn; waiting for an answer holds nothing). Rows in
 * `webhook_deliveries` survive a restart with `--db`.
 */

import { toTimestamp, wallNow } from '../../core/clock.js';
import type { Database } from '../../core/sqlite/sqlite.js';
import type { RunKind } from '../../engine/run-kind.js';
import type { EventRepo } from '../../engine/store/events.js';
import { attemptDelivery, type WebhookTimestamps } from './attempt.js';
import {
  createDeliveryRepo,
  type Delivery,
  type DeliveryFilter,
  type DeliveryRepo,
  type StagedDelivery,
} from './deliveries-store.js';
import type { WebhookEndpointRepo } from './endpoints-store.js';
import {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_RETRY_SCHEDULE_MS,
  failedTooLong,
  nextAttemptAt,
} from './schedule.js';
import { AttemptTurns } from './turns.js';

export type { WebhookTimestamps } from './attempt.js';
export type { Delivery } from './deliveries-store.js';

/** The accounts' virtual clocks, as the queues read them. */
export interface DeliveryClock {
  /** The account's virtual now; undefined once the account is gone. */
  now(accountId: string): number | undefined;
  /** Wall ms until the account's clock reaches `at`; null for a clock that moves only when told. */
  wallMsUntil(accountId: string, at: number): number | null;
}

export interface DispatcherOptions {
  seed: string;
  db: Database;
  events: EventRepo;
  endpoints: WebhookEndpointRepo;
  clock: DeliveryClock;
  /** The registered kinds: an event's run is shown as its kind shows it. */
  kinds: Readonly<Record<string, RunKind>>;
  /** The account's settle in progress, if any: a body is built once it is done. */
  settled?: (accountId: string) => Promise<void> | undefined;
  /** False (`--no-webhooks`): events are recorded, nothing is enqueued or sent. */
  enabled: boolean;
  /** Virtual ms before each attempt: the first after its event, each next after a failure. */
  retryScheduleMs?: readonly number[];
  /** An attempt that has not answered by then (wall ms) fails. Default 10 s. */
  timeoutMs?: number;
  /** Delivered or failed records kept, oldest pruned first (`--webhook-history`). Default 10,000. */
  historySize?: number;
  /** `webhook-timestamp` source (`--webhook-timestamps`). Default `wall`. */
  timestamps?: WebhookTimestamps;
  /** An endpoint was disabled at virtual ms `at`: its event is recorded. */
  onDisabled?: (endpointId: string, at: number) => void;
}

/** An endpoint's running queue: stopped by `stop`, its wait cut short by `wake`. */
interface Queue {
  accountId: string;
  stop: AbortController;
  wake: () => void;
}

export class WebhookDispatcher {
  readonly enabled: boolean;
  readonly schedule: readonly number[];
  private originValue = 'http://localhost';
  private readonly repo: DeliveryRepo;
  private readonly queues = new Map<string, Queue>();
  private finished: number;
  private closed = false;
  /** Steps of attempts (a start, an answer recorded) made per turn of the event loop. */
  private readonly turns = new AttemptTurns(8);
  /** Whether the origin was set (the server listens): only then are kept deliveries resumed. */
  private serving = false;

  constructor(private readonly options: DispatcherOptions) {
    this.enabled = options.enabled;
    this.schedule = options.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS;
    this.repo = createDeliveryRepo(options.db);
    this.finished = this.repo.countFinished();
  }

  /**
   * The origin of a delivered run's absolute `links` (`http://localhost` until the server listens);
   * setting it resumes the deliveries a `--db` file kept, now that bodies can be built.
   */
  set origin(value: string) {
    this.originValue = value;
    this.serving = true;
    this.resume();
  }

  get origin(): string {
    return this.originValue;
  }

  /** Records the committed events' deliveries and starts their endpoints' queues. */
  enqueue(staged: readonly StagedDelivery[]): void {
    if (!this.enabled || this.closed) return;
    this.repo.insertAll(staged, wallNow(), this.schedule[0] ?? 0);
    for (const { event, endpoint } of staged) this.start(endpoint.id, event.accountId);
  }

  /** The account's clock moved (or every clock, without an id): due attempts are made now. */
  wake(accountId?: string): void {
    for (const queue of this.queues.values())
      if (accountId === undefined || queue.accountId === accountId) queue.wake();
  }

  /** Oldest first, a page at a time. */
  list(filter: DeliveryFilter = {}): { data: Delivery[]; hasMore: boolean } {
    return this.repo.list(filter);
  }

  get(id: string): Delivery | undefined {
    return this.repo.get(id);
  }

  /**
   * A delivered or failed delivery sent again from now on its account's clock, as a new series
   * of attempts; the caller checks it is not pending and its endpoint takes deliveries.
   */
  redeliver(delivery: Delivery, now: number): Delivery {
    delivery.series += 1;
    delivery.status = 'pending';
    delivery.nextAt = now;
    this.repo.save(delivery);
    this.finished -= 1;
    this.start(delivery.endpointId, delivery.accountId);
    return delivery;
  }

  /** Starts (or wakes) the endpoint's queue: after it is enabled again, say. */
  resumeEndpoint(endpointId: string, accountId: string): void {
    this.start(endpointId, accountId);
  }

  /** Forgets deliveries, sent or not (all, or one account's), stopping their queues. */
  clear(accountId?: string): void {
    this.pause(accountId);
    if (accountId === undefined) this.repo.removeAll();
    else this.repo.removeAccount(accountId);
    this.finished = this.repo.countFinished();
  }

  /** Stops sending (all, or one account's queues), before their rows are replaced. */
  pause(accountId?: string): void {
    for (const [endpointId, queue] of this.queues)
      if (accountId === undefined || queue.accountId === accountId) this.stop(endpointId, queue);
  }

  /** After the rows changed under it (a restore): recounts them and sends what is pending. */
  resume(): void {
    this.finished = this.repo.countFinished();
    if (!this.serving) return;
    for (const { endpointId, accountId } of this.repo.pendingEndpoints())
      this.start(endpointId, accountId);
  }

  /** Stops every timer and request: nothing is left running. */
  close(): void {
    this.closed = true;
    for (const [endpointId, queue] of this.queues) this.stop(endpointId, queue);
  }

  private start(endpointId: string, accountId: string): void {
    if (!this.enabled || this.closed) return;
    const running = this.queues.get(endpointId);
    if (running) {
      running.wake();
      return;
    }
    const queue: Queue = { accountId, stop: new AbortController(), wake: () => undefined };
    this.queues.set(endpointId, queue);
    void this.run(endpointId, queue);
  }

  private stop(endpointId: string, queue: Queue): void {
    this.queues.delete(endpointId);
    queue.stop.abort();
  }

  /** The endpoint's due attempts, one at a time, until none is pending or it cannot take more. */
  private async run(endpointId: string, queue: Queue): Promise<void> {
    const live = () => this.queues.get(endpointId) === queue;
    while (live()) {
      // Bodies show runs as reads do, and a settle may record events due before the head.
      const settling = this.options.settled?.(queue.accountId);
      if (settling) {
        await settling.catch(() => undefined);
        continue;
      }
      const delivery = this.repo.head(endpointId);
      const endpoint = this.options.endpoints.find(endpointId);
      const now = delivery && this.options.clock.now(delivery.accountId);
      if (!delivery || !endpoint || endpoint.disabledAt !== null || now === undefined) {
        this.queues.delete(endpointId);
        return;
      }
      // An attempt left in flight when the emulator stopped was never answered: it is made again.
      if (delivery.attempts.at(-1)?.durationMs === null) delivery.attempts.pop();
      if (endpoint.deletedAt !== null) {
        this.finish(delivery, 'failed');
      } else if (delivery.nextAt! > now) {
        await this.waitFor(queue, delivery);
      } else {
        await this.attempt(delivery, endpoint.failingSince, queue);
      }
    }
  }

  /** Until the account's clock reaches the delivery's next attempt, or a wake. */
  private waitFor(queue: Queue, delivery: Delivery): Promise<void> {
    const wait = this.options.clock.wallMsUntil(delivery.accountId, delivery.nextAt!);
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        queue.stop.signal.removeEventListener('abort', done);
        queue.wake = () => undefined;
        resolve();
      };
      const timer = wait === null ? undefined : setTimeout(done, Math.min(wait, 2 ** 31 - 1));
      queue.wake = done;
      queue.stop.signal.addEventListener('abort', done);
    });
  }

  private async attempt(delivery: Delivery, failingSince: number | null, queue: Queue) {
    const at = delivery.nextAt!;
    // Its turn comes before it is recorded: an attempt waiting for one is not shown in flight.
    await this.turns.next(delivery.accountId);
    if (queue.stop.signal.aborted) return;
    const ok = await attemptDelivery(
      delivery,
      at,
      {
        seed: this.options.seed,
        events: this.options.events,
        kinds: this.options.kinds,
        origin: this.originValue,
        timestamps: this.options.timestamps ?? 'wall',
        timeoutMs: this.options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
      },
      queue.stop.signal,
      (d) => this.repo.save(d),
    );
    await this.turns.next(delivery.accountId);
    // Stopped by a reset, an account's deletion or close: its rows are gone or kept as they were.
    if (queue.stop.signal.aborted) return;
    const { endpoints } = this.options;
    if (ok) {
      endpoints.setFailingSince(delivery.endpointId, null);
      return this.finish(delivery, 'delivered');
    }
    if (failingSince === null) endpoints.setFailingSince(delivery.endpointId, at);
    const number = delivery.attempts.at(-1)!.number;
    const next = nextAttemptAt(this.schedule, { number, at });
    if (next !== null) {
      delivery.nextAt = next;
      this.repo.save(delivery);
      return;
    }
    this.finish(delivery, 'failed');
    if (failedTooLong(failingSince ?? at, at)) {
      endpoints.setDisabled(delivery.endpointId, toTimestamp(at));
      this.options.onDisabled?.(delivery.endpointId, at);
    }
  }

  private finish(delivery: Delivery, status: 'delivered' | 'failed'): void {
    delivery.status = status;
    delivery.nextAt = null;
    this.repo.save(delivery);
    this.prune();
  }

  /** Keeps at most `historySize` finished records: the bound README "Limitations" states. */
  private prune(): void {
    const kept = this.options.historySize ?? 10_000;
    this.finished += 1;
    if (this.finished <= kept) return;
    this.repo.pruneFinished(this.finished - kept);
    this.finished = kept;
  }
}
