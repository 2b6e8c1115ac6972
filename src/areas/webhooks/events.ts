/**
 * Events beside a run's transitions (inferred): an endpoint disabled by its failures, and an event
 * fired on demand from the control API (as `stripe trigger` does), each recorded in the account's
 * event log and delivered like any other.
 */

import type { ClockRegistry } from '../../core/accounts/clock-registry.js';
import { invalidParam, MESSAGES } from '../../core/errors.js';
import type { Account } from '../../core/records.js';
import type { Store } from '../../core/sqlite/store.js';
import { RUN_STATUSES } from '../../engine/contract/run-shapes.js';
import type { Deps } from '../../engine/deps.js';
import { type EventDraft, recordEvents } from '../../engine/event-log.js';
import {
  type EventSnapshot,
  runSnapshot,
  type ShownObject,
} from '../../engine/timeline/event-view.js';
import { ENDPOINT_EVENT_TYPES } from './contract.js';
import type { DeliveryClock } from './deliveries.js';
import { toWebhookEndpoint } from './endpoint-view.js';

/** The accounts' clocks as the delivery queues read them, by account id. */
export function accountClocks(store: Store, clocks: ClockRegistry): DeliveryClock {
  const account = (id: string) => store.accounts.get(id);
  return {
    now: (id) => {
      const a = account(id);
      return a && clocks.now(a);
    },
    wallMsUntil: (id, at) => {
      const a = account(id);
      return a ? clocks.forAccount(a).wallMsUntil(at) : null;
    },
  };
}

/** Records `webhook_endpoint.disabled` at virtual ms `at`, showing the endpoint as it now is. */
export function recordEndpointDisabled(
  deps: Pick<Deps, 'store' | 'ids' | 'engine'>,
  endpointId: string,
  at: number,
): void {
  const endpoint = deps.store.webhookEndpoints.find(endpointId);
  if (!endpoint) return;
  const object = toWebhookEndpoint(endpoint) as ShownObject;
  const snapshot: EventSnapshot = { kind: 'object', object, webhookMetadata: null };
  const type = 'webhook_endpoint.disabled';
  deps.store.tx(() =>
    recordEvents(deps, [
      {
        at,
        accountId: endpoint.accountId,
        type,
        resourceId: endpointId,
        previousStatus: 'enabled',
        snapshot,
      },
    ]),
  );
}

/** What `POST /_control/accounts/{id}/events` asks for. */
export interface FireEventInput {
  type: string;
  /** The resource the event shows: a run of the type's kind, or an endpoint. */
  resource?: string | undefined;
  data?: { object?: Record<string, unknown>; previous_status?: string | null } | undefined;
  webhook_metadata?: Record<string, unknown> | null | undefined;
}

/** Every type the platform emits: `<kind>.<status>` for each kind served, and the endpoint's. */
export function eventTypes(deps: Deps): string[] {
  const kinds = Object.keys(deps.kinds.byName);
  return [...kinds.flatMap((k) => RUN_STATUSES.map((s) => `${k}.${s}`)), ...ENDPOINT_EVENT_TYPES];
}

/**
 * Records an event of `input.type` at the account's now and delivers it to every subscribed
 * endpoint; answers its id. Its `data.object` is the one given, else the resource named (a run of
 * the type's kind or an endpoint, as a read shows it now), else the account's newest such one.
 */
export function fireEvent(deps: Deps, account: Account, input: FireEventInput): string {
  if (!eventTypes(deps).includes(input.type))
    throw invalidParam('type', MESSAGES.unknownEventType(input.type));
  const at = deps.clocks.now(account);
  const given = input.data?.object;
  const { snapshot, resourceId } = given
    ? givenSnapshot(given, input.webhook_metadata ?? null)
    : resourceSnapshot(deps, account, input);
  const draft: EventDraft = {
    at,
    accountId: account.id,
    type: input.type,
    resourceId,
    previousStatus: input.data?.previous_status ?? null,
    snapshot,
  };
  return deps.store.tx(() => {
    recordEvents(deps, [draft]);
    return deps.store.events.latestId(account.id)!;
  });
}

function givenSnapshot(
  object: Record<string, unknown>,
  webhookMetadata: Record<string, unknown> | null,
) {
  if (typeof object.id !== 'string' || typeof object.object !== 'string')
    throw invalidParam('data.object', MESSAGES.eventObjectShape);
  const snapshot: EventSnapshot = {
    kind: 'object',
    object: object as ShownObject,
    webhookMetadata,
  };
  return { snapshot, resourceId: object.id };
}

/** The named (or newest) resource of the type's kind, as a read shows it now. */
function resourceSnapshot(deps: Deps, account: Account, input: FireEventInput) {
  const noun = input.type.slice(0, input.type.indexOf('.'));
  const { store } = deps;
  if (noun === 'webhook_endpoint') {
    const id = input.resource ?? store.webhookEndpoints.liveOfAccount(account.id)[0]?.id;
    const endpoint = id === undefined ? undefined : store.webhookEndpoints.get(account.id, id);
    if (!endpoint) throw invalidParam('resource', MESSAGES.noEventResource(noun, input.resource));
    const object = toWebhookEndpoint(endpoint) as ShownObject;
    const snapshot: EventSnapshot = { kind: 'object', object, webhookMetadata: null };
    return { snapshot, resourceId: endpoint.id };
  }
  const run = input.resource
    ? store.runs.get(account.id, input.resource)
    : store.runs.list(account.id, noun, { limit: 1 }).data[0];
  if (!run || run.kind !== noun)
    throw invalidParam('resource', MESSAGES.noEventResource(noun, input.resource));
  return { snapshot: runSnapshot(run, run.state), resourceId: run.id };
}
