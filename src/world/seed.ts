import type { UserAssetInput, WebhookEndpointInput } from '../contract/control-inputs.js';
import type { Account, UserAssetKind } from '../domain/records.js';
import { apiError, MESSAGES } from '../errors.js';
import { toTimestamp } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import { createWebhookEndpoint } from '../runtime/webhooks/endpoints.js';

function ensureNew(exists: boolean, id: string): void {
  if (exists)
    throw apiError('parameter_invalid', {
      param: 'id',
      message: MESSAGES.alreadyExists(`'${id}'`),
    });
}

/** A webhook endpoint of the account, as `POST /v1/webhook_endpoints` would make it. */
export function seedWebhookEndpoint(deps: Deps, account: Account, input: WebhookEndpointInput) {
  const { id } = input;
  if (id !== undefined) ensureNew(deps.store.webhookEndpoints.exists(id), id);
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
  if (input.id && !input.id.startsWith(`${prefix}_`)) {
    throw apiError('parameter_invalid', {
      param: 'id',
      message: MESSAGES.idPrefix(kind, prefix),
    });
  }
  const id = input.id ?? ids.next(prefix, account.id, now);
  ensureNew(store.userAssets.exists(id), id);
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
