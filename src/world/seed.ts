import type { WebhookEndpointInput } from '../areas/webhooks/contract.js';
import { createWebhookEndpoint } from '../areas/webhooks/endpoints.js';
import { toTimestamp } from '../core/clock.js';
import type { UserAssetInput } from '../core/control-inputs.js';
import { invalidParam, MESSAGES } from '../core/errors.js';
import type { Account, UserAssetKind } from '../core/records.js';
import type { Deps } from '../engine/deps.js';

/** 400 naming `id` when a resource of that id exists. */
export function assertNewId(exists: boolean, id: string): void {
  if (exists) throw invalidParam('id', MESSAGES.alreadyExists(`'${id}'`));
}

/** 400 naming `id` when a given id lacks the prefix of `what` (or a legacy one). */
export function assertIdPrefix(id: string | undefined, what: string, prefixes: readonly string[]) {
  if (id !== undefined && !prefixes.some((p) => id.startsWith(`${p}_`)))
    throw invalidParam('id', MESSAGES.idPrefix(what, prefixes[0]!));
}

/** A webhook endpoint of the account, as `POST /v1/webhook_endpoints` would make it. */
export function seedWebhookEndpoint(deps: Deps, account: Account, input: WebhookEndpointInput) {
  const { id } = input;
  if (id !== undefined) assertNewId(deps.store.webhookEndpoints.exists(id), id);
  return createWebhookEndpoint(deps, account, input, deps.clocks.now(account));
}

export function seedUserAsset(
  deps: Deps,
  account: Account,
  kind: UserAssetKind,
  input: UserAssetInput,
) {
  const { store, ids, clocks } = deps;
  const now = clocks.now(account);
  const prefix = kind === 'environment' ? 'env' : 'obj';
  assertIdPrefix(input.id, kind, [prefix]);
  const id = input.id ?? ids.next(prefix, account.id, now);
  assertNewId(store.userAssets.exists(id), id);
  const asset = {
    id,
    accountId: account.id,
    kind,
    name: input.name,
    status: input.status,
    createdAt: toTimestamp(now),
  };
  store.userAssets.insert(asset);
  return asset;
}
