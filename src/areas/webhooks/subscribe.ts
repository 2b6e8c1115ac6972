/**
 * The webhooks' part of assembling an emulator (emulator.ts): the deliveries follow the events the
 * engine records and the accounts' clocks; the engine knows nothing of them.
 */

import type { Deps } from '../../engine/deps.js';
import type { RecordedEvent } from '../../engine/engine.js';
import { WebhookDispatcher } from './deliveries.js';
import type { StagedDelivery } from './deliveries-store.js';
import type { DispatcherOptions } from './dispatcher-options.js';
import { accountClocks, recordEndpointDisabled } from './events.js';
import { eventMatches } from './signing.js';

declare module '../../engine/deps.js' {
  interface Deps {
    /** Webhook deliveries of committed events (in memory). */
    webhooks: WebhookDispatcher;
  }
}

/** What an emulator's options say of its deliveries (`webhook*` of EmulatorOptions). */
export type WebhookSettings = Pick<
  DispatcherOptions,
  'enabled' | 'historySize' | 'timestamps' | 'retryScheduleMs' | 'timeoutMs'
>;

/**
 * The emulator's deliveries (`deps.webhooks`), built from the parts of Deps they read: the
 * accounts' clocks, the engine's settles in progress (an attempt waits for its account's), and the
 * event log, where an endpoint disabled by its failures records `webhook_endpoint.disabled`.
 */
export function createWebhooks(
  parts: Pick<Deps, 'config' | 'store' | 'clocks' | 'kinds' | 'engine' | 'ids'>,
  settings: WebhookSettings,
): WebhookDispatcher {
  const { config, store, clocks, engine } = parts;
  return new WebhookDispatcher({
    seed: config.seed,
    db: store.db,
    events: store.events,
    endpoints: store.webhookEndpoints,
    clock: accountClocks(store, clocks),
    kinds: parts.kinds.byName,
    settled: (accountId) => engine.settleOf(accountId),
    ...settings,
    onDisabled: (endpointId, at) => recordEndpointDisabled(parts, endpointId, at),
  });
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
