/** One attempt of a delivery: its signed request, built from the stored event, and its outcome. */

import { wallNow } from '../../core/clock.js';
import type { RunKind } from '../../engine/run-kind.js';
import type { EventRepo } from '../../engine/store/events.js';
import { toEvent } from '../../engine/timeline/event-view.js';
import { messageOf } from './chaos-message.js';
import type { Delivery, DeliveryAttempt } from './deliveries-store.js';
import { type AttemptResult, sendAttempt } from './send.js';

export type WebhookTimestamps = 'wall' | 'virtual';

/** One attempt of one delivery: its delivery, its series (redeliveries) and its number in it. */
export interface AttemptRef {
  delivery: string;
  series: number;
  number: number;
}

/**
 * What a recording or a replay of the calls (areas/bundles, tools/replay) adds to the attempts:
 * each held before it starts, sent elsewhere than the network, and seen as it starts and ends.
 */
export interface WebhookHooks {
  /** Before the attempt is recorded in flight: it waits for this. */
  beforeAttempt?: (ref: AttemptRef) => Promise<void>;
  /** Sends the attempt instead of the network. */
  send?: (ref: AttemptRef, signal: AbortSignal) => Promise<AttemptResult>;
  /** The attempt was recorded in flight. */
  started?: (ref: AttemptRef) => void;
  /** The attempt's outcome was recorded (and its delivery's next step). */
  answered?: (ref: AttemptRef, result: AttemptResult) => void;
}

export interface AttemptSettings {
  seed: string;
  events: EventRepo;
  kinds: Readonly<Record<string, RunKind>>;
  /** The origin of a delivered run's absolute `links`. */
  origin: string;
  timestamps: WebhookTimestamps;
  timeoutMs: number;
  hooks: WebhookHooks;
}

/**
 * Makes the delivery's attempt due at `at` (recorded in flight first, through `save`), and
 * answers whether the receiver took it (2xx).
 */
export async function attemptDelivery(
  delivery: Delivery,
  at: number,
  settings: AttemptSettings,
  signal: AbortSignal,
  save: (d: Delivery) => void,
): Promise<boolean> {
  const number = delivery.attempts.filter((a) => a.series === delivery.series).length + 1;
  const attempt: DeliveryAttempt = {
    series: delivery.series,
    number,
    at,
    wallAt: wallNow(),
    statusCode: null,
    error: null,
    durationMs: null,
  };
  delivery.attempts.push(attempt);
  save(delivery);
  const ref = { delivery: delivery.id, series: delivery.series, number };
  settings.hooks.started?.(ref);
  const event = settings.events.get(delivery.accountId, delivery.eventId);
  if (!event) {
    Object.assign(attempt, { error: 'event_gone', durationMs: 0 });
    return false;
  }
  // Receivers check `webhook-timestamp` against their own wall clock (Standard Webhooks: a
  // 5-minute window), so by default it is wall time at the attempt; `virtual` keeps the
  // event's virtual instant for byte-identical headers across runs.
  const stamp = settings.timestamps === 'virtual' ? Date.parse(event.createdAt) : attempt.wallAt;
  const shown = toEvent(event, settings.origin, settings.kinds);
  const message = messageOf(
    settings.seed,
    delivery.endpointId,
    shown,
    delivery.chaos,
    Math.floor(stamp / 1000),
  );
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'svc-emulator-webhooks',
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestamp),
    'webhook-signature': message.signature,
  };
  const body = message.body;
  const { send } = settings.hooks;
  const result = send
    ? await send(ref, signal)
    : await sendAttempt(delivery.url, headers, body, signal, settings.timeoutMs);
  Object.assign(attempt, result, { durationMs: wallNow() - attempt.wallAt });
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}
