import { toTimestamp } from '../../core/clock.js';
import type { Account } from '../../core/records.js';
import { assertIdPrefix, assertNewId } from '../../core/seed-ids.js';
import type { Deps } from '../../engine/deps.js';
import type { UserAssetInput } from './inputs.js';
import type { UserAssetKind } from './records.js';

/**
 * A user environment or object of the account (control seeding and scenario files), validated
 * unless the input says otherwise; a given id must be new and carry the kind's prefix.
 * @example seedUserAsset(deps, account, 'environment', { name: 'Kitchen', status: 'validated' })
 */
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
