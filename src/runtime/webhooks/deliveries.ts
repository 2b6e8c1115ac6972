/**
 * Webhook deliveries (inferred: the API document shows none): each event to every live matching
 * endpoint once its transaction commits, in order per endpoint, signed per Standard Webhooks,
 * retried with backoff; rows in `webhook_deliveries` survive a restart with `--db`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import { toEvent } from '../../domain/event-view.js';
import type { RunKind } from '../../domain/run-kind.js';
import { makeWebhookSecret } from '../../ids.js';
import type { EventRepo } from '../../store/events.js';
import {
  createDeliveryRepo,
  type Delivery,
  type DeliveryFilter,
  type DeliveryRepo,
  type StagedDelivery,
} from '../../store/webhook-deliveries.js';
import { wallNow } from '../clock.js';
import { sendAttempt } from './send.js';
import { signWebhook } from './signing.js';

export type { Delivery } from '../../store/webhook-deliveries.js';

export type WebhookTimestamps = 'wall' | 'virtual';

export interface DispatcherOptions {
  seed: string;
  db: Database;
  events: EventRepo;
  /** The registered kinds: an event's run is shown as its kind shows it. */
  kinds: Readonly<Record<string, RunKind>>;
  /** The account's settle in progress, if any: a body is built once it is done. */
  settled?: (accountId: string) => Promise<void> | undefined;
  /** False (`--no-webhooks`): events are recorded, nothing is enqueued or sent. */
  enabled: boolean;
  /** Waits between attempts; attempts = delays + 1. Default 100 ms then 500 ms. */
  retryDelaysMs?: readonly number[];
  /** An attempt that has not answered by then fails. Default 10 s. */
  timeoutMs?: number;
  /** Delivered or failed records kept, oldest pruned first (`--webhook-history`). Default 10,000. */
  historySize?: number;
  /** `webhook-timestamp` source (`--webhook-timestamps`). Default `wall`. */
  timestamps?: WebhookTimestamps;
}

export class WebhookDispatcher {
  readonly enabled: boolean;
  private originValue = 'http://localhost';
  private readonly repo: DeliveryRepo;
  /** Per endpoint with pending deliveries, its queue, aborted to stop it; absent when idle. */
  private readonly queues = new Map<string, AbortController>();
  private finished: number;
  private closed = false;
  /** Whether the origin was set (the server listens): only then are kept deliveries resumed. */
  private serving = false;

  constructor(private readonly options: DispatcherOptions) {
    this.enabled = options.enabled;
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

  /** Records the committed events' deliveries and starts sending them. */
  enqueue(staged: readonly StagedDelivery[]): void {
    if (!this.enabled || this.closed) return;
    this.repo.insertAll(staged, wallNow());
    for (const { endpoint } of staged) this.start(endpoint.id);
  }

  /** Oldest first, a page at a time. */
  list(filter: DeliveryFilter = {}): { data: Delivery[]; hasMore: boolean } {
    return this.repo.list(filter);
  }

  /** Forgets deliveries, sent or not (all, or one account's), stopping those in flight. */
  clear(accountId?: string): void {
    this.pause(accountId);
    if (accountId === undefined) this.repo.removeAll();
    else this.repo.removeAccount(accountId);
    this.finished = this.repo.countFinished();
  }

  /** Stops sending (all, or one account's queues), before their rows are replaced. */
  pause(accountId?: string): void {
    for (const [endpointId, queue] of this.queues) {
      const head = this.repo.head(endpointId);
      if (accountId !== undefined && head !== undefined && head.accountId !== accountId) continue;
      this.stop(endpointId, queue);
    }
  }

  /** After the rows changed under it (a restore): recounts them and sends what is pending. */
  resume(): void {
    this.finished = this.repo.countFinished();
    if (!this.enabled || this.closed || !this.serving) return;
    for (const endpointId of this.repo.pendingEndpoints()) this.start(endpointId);
  }

  /** Stops every timer and request: nothing is left running. */
  close(): void {
    this.closed = true;
    for (const [endpointId, queue] of this.queues) this.stop(endpointId, queue);
  }

  private start(endpointId: string): void {
    if (this.queues.has(endpointId)) return;
    const queue = new AbortController();
    this.queues.set(endpointId, queue);
    void this.run(endpointId, queue);
  }

  private stop(endpointId: string, queue: AbortController): void {
    this.queues.delete(endpointId);
    queue.abort();
  }

  private async run(endpointId: string, queue: AbortController): Promise<void> {
    const live = () => this.queues.get(endpointId) === queue;
    while (live()) {
      const delivery = this.repo.head(endpointId);
      if (!delivery) {
        this.queues.delete(endpointId);
        return;
      }
      const ok = await this.attempt(delivery, queue);
      if (!live()) return;
      const delay = (this.options.retryDelaysMs ?? [100, 500])[delivery.attempts.length - 1];
      if (ok || delay === undefined) {
        delivery.status = ok ? 'delivered' : 'failed';
        this.repo.save(delivery);
        this.prune();
        continue;
      }
      this.repo.save(delivery);
      await sleep(delay, undefined, { signal: queue.signal }).catch(() => undefined);
    }
  }

  /** Keeps at most `historySize` finished records: the bound README "Limitations" states. */
  private prune(): void {
    const kept = this.options.historySize ?? 10_000;
    this.finished += 1;
    if (this.finished <= kept) return;
    this.repo.pruneFinished(this.finished - kept);
    this.finished = kept;
  }

  private async attempt(delivery: Delivery, queue: AbortController): Promise<boolean> {
    // The body shows the run as its account's reads do: after the settle in progress.
    await this.options.settled?.(delivery.accountId);
    const event = this.options.events.get(delivery.accountId, delivery.eventId);
    const at = wallNow();
    if (!event) {
      delivery.attempts.push({ at, statusCode: null, error: 'event_gone' });
      return false;
    }
    const body = JSON.stringify(toEvent(event, this.originValue, this.options.kinds));
    // Receivers check `webhook-timestamp` against their own wall clock (Standard Webhooks: a
    // 5-minute window), so by default it is wall time at the attempt; `virtual` keeps the
    // event's virtual instant for byte-identical headers across runs.
    const timestamp = Math.floor(
      (this.options.timestamps === 'virtual' ? Date.parse(event.createdAt) : at) / 1000,
    );
    const secret = makeWebhookSecret(this.options.seed, delivery.endpointId);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'svc-emulator-webhooks',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, event.id, timestamp, body),
    };
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const result = await sendAttempt(delivery.url, headers, body, queue.signal, timeoutMs);
    delivery.attempts.push({ at, ...result });
    return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  }
}
