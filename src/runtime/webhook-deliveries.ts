/**
 * Webhook deliveries (inferred: the API document shows no delivery, signing or retry). Each
 * event recorded for an account goes to every live endpoint of the account whose `events` match
 * its type; deliveries are kept in memory (a restart forgets them) and enqueued only once the
 * transaction that recorded the event commits. A dispatcher POSTs them with `fetch`, in event
 * order per endpoint, signed per the Standard Webhooks convention, retrying with wall-clock
 * backoff. The request (body, headers, signature) is fixed when enqueued and deterministic: it
 * depends on the seed and the event only, never on wall time.
 */
import { createHmac } from 'node:crypto';
import { type EventRecord, toEvent } from '../domain/event-view.js';
import { makeWebhookSecret } from '../ids.js';
import { wallNow } from './clock.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  /** Wall ms when the attempt started. */
  at: number;
  statusCode: number | null;
  error: string | null;
}

export interface Delivery {
  id: string;
  accountId: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  url: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Wall ms when it was enqueued. */
  createdAt: number;
  headers: Record<string, string>;
  body: string;
}

export interface DeliveryFilter {
  account?: string | undefined;
  endpoint?: string | undefined;
  event?: string | undefined;
  status?: DeliveryStatus | undefined;
}

export interface DispatcherOptions {
  seed: string;
  /** False (`--no-webhooks`): events are recorded, nothing is enqueued or sent. */
  enabled: boolean;
  /** Waits between attempts; attempts = delays + 1. Default 100 ms then 500 ms. */
  retryDelaysMs?: readonly number[];
  /** An attempt that has not answered by then fails. Default 10 s. */
  timeoutMs?: number;
}

/** `*`, the exact type, or a prefix wildcard such as `evaluation.*`. */
export function eventMatches(patterns: readonly string[], type: string): boolean {
  return patterns.some(
    (p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))),
  );
}

/**
 * The `webhook-signature` value: `v1,` + base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`,
 * keyed with the UTF-8 bytes of the whole secret as shown (`whsec_...`, prefix included).
 * @example signWebhook('whsec_abc', 'evt_1', 1767225600, '{}') // 'v1,...'
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

interface Queue {
  items: Delivery[];
  timer: NodeJS.Timeout | null;
  wake: (() => void) | null;
  controller: AbortController | null;
}

/** An event and an endpoint it goes to, once its transaction commits. */
export interface StagedDelivery {
  event: EventRecord;
  endpoint: { id: string; url: string };
}

export class WebhookDispatcher {
  readonly enabled: boolean;
  /**
   * The origin the `links` of a delivered event name (an evaluation's body has absolute links):
   * `http://localhost` until the server listening says where it is.
   */
  origin = 'http://localhost';
  private readonly seed: string;
  private readonly retryDelaysMs: readonly number[];
  private readonly timeoutMs: number;
  private deliveries: Delivery[] = [];
  /** Per endpoint, its deliveries still to send, in event order; absent when idle. */
  private readonly queues = new Map<string, Queue>();
  private counter = 0;
  private closed = false;

  constructor(options: DispatcherOptions) {
    this.seed = options.seed;
    this.enabled = options.enabled;
    this.retryDelaysMs = options.retryDelaysMs ?? [100, 500];
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Builds the signed requests of committed events and starts sending them. */
  enqueue(staged: readonly StagedDelivery[]): void {
    if (!this.enabled || this.closed) return;
    for (const { event, endpoint } of staged) {
      const body = JSON.stringify(toEvent(event, this.origin));
      const timestamp = Math.floor(Date.parse(event.createdAt) / 1000);
      const secret = makeWebhookSecret(this.seed, endpoint.id);
      this.counter += 1;
      const delivery: Delivery = {
        id: `whdl_${String(this.counter).padStart(8, '0')}`,
        accountId: event.accountId,
        eventId: event.id,
        eventType: event.type,
        endpointId: endpoint.id,
        url: endpoint.url,
        status: 'pending',
        attempts: [],
        createdAt: wallNow(),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'svc-emulator-webhooks',
          'webhook-id': event.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, event.id, timestamp, body),
        },
        body,
      };
      this.deliveries.push(delivery);
      const queue = this.queues.get(endpoint.id);
      if (queue) queue.items.push(delivery);
      else {
        const fresh: Queue = { items: [delivery], timer: null, wake: null, controller: null };
        this.queues.set(endpoint.id, fresh);
        void this.run(endpoint.id, fresh);
      }
    }
  }

  /** Oldest first. */
  list(filter: DeliveryFilter = {}): Delivery[] {
    return this.deliveries.filter(
      (d) =>
        (filter.account === undefined || d.accountId === filter.account) &&
        (filter.endpoint === undefined || d.endpointId === filter.endpoint) &&
        (filter.event === undefined || d.eventId === filter.event) &&
        (filter.status === undefined || d.status === filter.status),
    );
  }

  /** Forgets deliveries, sent or not (all, or one account's), stopping those in flight. */
  clear(accountId?: string): void {
    for (const [endpointId, queue] of this.queues) {
      if (accountId !== undefined && queue.items[0]?.accountId !== accountId) continue;
      this.stop(endpointId, queue);
    }
    if (accountId === undefined) {
      this.deliveries = [];
      this.counter = 0;
    } else this.deliveries = this.deliveries.filter((d) => d.accountId !== accountId);
  }

  /** Stops every timer and request: nothing is left running. */
  close(): void {
    this.closed = true;
    for (const [endpointId, queue] of this.queues) this.stop(endpointId, queue);
  }

  private stop(endpointId: string, queue: Queue): void {
    this.queues.delete(endpointId);
    if (queue.timer) clearTimeout(queue.timer);
    queue.wake?.();
    queue.controller?.abort();
  }

  private async run(endpointId: string, queue: Queue): Promise<void> {
    const live = () => this.queues.get(endpointId) === queue;
    while (live()) {
      const delivery = queue.items[0];
      if (!delivery) {
        this.queues.delete(endpointId);
        return;
      }
      const ok = await this.attempt(delivery, queue);
      if (!live()) return;
      const delay = this.retryDelaysMs[delivery.attempts.length - 1];
      if (ok || delay === undefined) {
        delivery.status = ok ? 'delivered' : 'failed';
        queue.items.shift();
        continue;
      }
      await new Promise<void>((resolve) => {
        queue.wake = resolve;
        queue.timer = setTimeout(() => {
          queue.timer = null;
          resolve();
        }, delay);
      });
      queue.wake = null;
    }
  }

  private async attempt(delivery: Delivery, queue: Queue): Promise<boolean> {
    const controller = new AbortController();
    queue.controller = controller;
    const at = wallNow();
    try {
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        redirect: 'manual',
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(this.timeoutMs)]),
      });
      await res.arrayBuffer().catch(() => undefined);
      delivery.attempts.push({ at, statusCode: res.status, error: null });
      return res.status >= 200 && res.status < 300;
    } catch (err) {
      delivery.attempts.push({ at, statusCode: null, error: describeError(err) });
      return false;
    } finally {
      queue.controller = null;
    }
  }
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError') return 'timeout';
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
}
