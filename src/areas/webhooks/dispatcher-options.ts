/** What the webhook dispatcher (deliveries.ts) is made with. */

import type { Database } from '../../core/sqlite/sqlite.js';
import type { RunKind } from '../../engine/run-kind.js';
import type { EventRepo } from '../../engine/store/events.js';
import type { WebhookTimestamps } from './attempt.js';
import type { WebhookEndpointRepo } from './endpoints-store.js';

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
