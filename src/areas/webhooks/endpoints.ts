import { toTimestamp } from '../../core/clock.js';
import { makeWebhookSecret } from '../../core/ids.js';
import type { Account } from '../../core/records.js';
import { assertNewId } from '../../core/seed-ids.js';
import type { Deps } from '../../engine/deps.js';
import type { WebhookEndpointInput } from './inputs.js';
import type { WebhookEndpointRecord } from './records.js';

export interface WebhookEndpointFields {
  /** An explicit id (control seeding; the caller checks it is new), else a generated `whe_`. */
  id?: string | undefined;
  url: string;
  events?: string[] | undefined;
  description?: string | null | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Stores a new endpoint; answers it with its signing secret (from seed and id, never stored). */
export function createWebhookEndpoint(
  deps: Deps,
  account: Account,
  fields: WebhookEndpointFields,
  now: number,
): WebhookEndpointRecord & { secret: string } {
  const endpoint: WebhookEndpointRecord = {
    id: fields.id ?? deps.ids.next('whe', account.id, now),
    accountId: account.id,
    url: fields.url,
    events: fields.events ?? ['*'],
    description: fields.description ?? null,
    metadata: fields.metadata ?? {},
    createdAt: toTimestamp(now),
    deletedAt: null,
    disabledAt: null,
  };
  deps.store.webhookEndpoints.insert(endpoint);
  return { ...endpoint, secret: makeWebhookSecret(deps.config.seed, endpoint.id) };
}

/**
 * A webhook endpoint of the account, as `POST /v1/webhook_endpoints` would make it (control
 * seeding and scenario files), at the account's now; a given id must be new.
 * @example seedWebhookEndpoint(deps, account, { url: 'https://example.com/hooks' })
 */
export function seedWebhookEndpoint(deps: Deps, account: Account, input: WebhookEndpointInput) {
  const { id } = input;
  if (id !== undefined) assertNewId(deps.store.webhookEndpoints.exists(id), id);
  return createWebhookEndpoint(deps, account, input, deps.clocks.now(account));
}
