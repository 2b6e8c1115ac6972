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
import { type AttemptRef, attemptDelivery, type WebhookHooks } from './attempt.js';
import { isExtra } from './chaos.js';
import { planDeliveries } from './chaos-plan.js';
import {
  createDeliveryRepo,
  type Delivery,
  type DeliveryFilter,
  type DeliveryRepo,
  type StagedDelivery,
} from './deliveries-store.js';
import type { DispatcherOptions } from './dispatcher-options.js';
import {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_RETRY_SCHEDULE_MS,
  failedTooLong,
  nextAttemptAt,
} from './schedule.js';
import { AttemptTurns } from './turns.js';

export type { AttemptRef, WebhookHooks, WebhookTimestamps } from './attempt.js';
export type { Delivery } from './deliveries-store.js';
export type { DeliveryClock, DispatcherOptions } from './dispatcher-options.js';

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
  /** What a recording or a replay of the calls adds to each attempt (attempt.ts). */
  hooks: WebhookHooks = {};

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
    const held = (endpointId: string) => this.repo.lastRealHeld(endpointId);
    const planned = planDeliveries(staged, this.options.seed, this.schedule[0] ?? 0, held);
    this.repo.insertAll(planned, wallNow());
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
    const number = delivery.attempts.filter((a) => a.series === delivery.series).length + 1;
    const ref: AttemptRef = { delivery: delivery.id, series: delivery.series, number };
    if (this.hooks.beforeAttempt) {
      await this.hooks.beforeAttempt(ref);
      if (queue.stop.signal.aborted) return;
    }
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
        hooks: this.hooks,
      },
      queue.stop.signal,
      (d) => this.repo.save(d),
    );
    await this.turns.next(delivery.accountId);
    // Stopped by a reset, an account's deletion or close: its rows are gone or kept as they were.
    if (queue.stop.signal.aborted) return;
    this.settle(delivery, ok, at, failingSince);
    const { statusCode, error, responseBody } = delivery.attempts.at(-1)!;
    this.hooks.answered?.(ref, { statusCode, error, responseBody: responseBody ?? null });
  }

  /** After an attempt: the delivery delivered, due again, or failed (and its endpoint disabled). */
  private settle(delivery: Delivery, ok: boolean, at: number, failingSince: number | null) {
    // A chaos extra is judged by its answer alone: never retried, never the endpoint's failure.
    if (isExtra(delivery.chaos)) return this.finish(delivery, ok ? 'delivered' : 'failed');
    // A real delivery's first attempt lets the events held back behind it go (chaos).
    if (delivery.attempts.length === 1)
      this.repo.releaseHeld(delivery.endpointId, delivery.seq, at);
    const { endpoints } = this.options;
    if (ok) {
      endpoints.setFailingSince(delivery.endpointId, null);
      // A duplicate comes when a retry would, had the receiver's answer been lost.
      const dupAt = at + (this.schedule[1] ?? 0);
      this.repo.releaseDuplicate(delivery.endpointId, delivery.eventId, dupAt);
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
    // An event never accepted has no duplicate: the one waiting for it ends unsent.
    const dropped =
      status === 'failed' && !isExtra(delivery.chaos)
        ? this.repo.dropDuplicate(delivery.endpointId, delivery.eventId)
        : 0;
    this.prune(1 + dropped);
  }

  /** Keeps at most `historySize` finished records: the bound README "Limitations" states. */
  private prune(added: number): void {
    const kept = this.options.historySize ?? 10_000;
    this.finished += added;
    if (this.finished <= kept) return;
    this.repo.pruneFinished(this.finished - kept);
    this.finished = kept;
  }
}
