/**
 * The webhooks' part of assembling an emulator (emulator.ts): the deliveries follow the events the
 * engine records and the accounts' clocks; the engine knows nothing of them.
 */

import type { Deps } from '../../engine/deps.js';
import type { RecordedEvent } from '../../engine/engine.js';
import type { WebhookDispatcher } from './deliveries.js';
import type { StagedDelivery } from './deliveries-store.js';
import { eventMatches } from './signing.js';

declare module '../../engine/deps.js' {
  interface Deps {
    /** Webhook deliveries of committed events (in memory). */
    webhooks: WebhookDispatcher;
  }
}

/** Subscribes `deps.webhooks` to the engine's recorded events and to the accounts' clocks. */
export function subscribeWebhooks(deps: Deps): void {
  deps.engine.onEventsRecorded((events) => stageDeliveries(deps, events));
  deps.clocks.onChange = (accountId) => deps.webhooks.wake(accountId);
}

/**
 * Who each event goes to is decided in the transaction that records it, from the endpoints live
 * now; the deliveries are enqueued only once it commits (a rollback drops them with the events).
 */
function stageDeliveries(deps: Deps, events: readonly RecordedEvent[]): void {
  const { store, webhooks } = deps;
  if (!webhooks.enabled) return;
  const staged: StagedDelivery[] = [];
  for (const event of events)
    for (const endpoint of store.webhookEndpoints.liveOfAccount(event.accountId))
      if (eventMatches(endpoint.events, event.type)) staged.push({ event, endpoint });
  if (staged.length > 0) store.onCommit(() => webhooks.enqueue(staged));
}
