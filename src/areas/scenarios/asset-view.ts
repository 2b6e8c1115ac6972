import type { UserAssetKind, UserAssetRecord } from './records.js';

/** How long a created asset is `validating`, in virtual ms (our inference). */
export const VALIDATION_MS = 2000;

export type AssetStatus = 'validating' | 'validated' | 'rejected';

/**
 * The status a user asset shows (inferred, DESIGN.md section 7): seeded ones keep the control
 * API's words, `pending` reads as `validating` (it never ends) and `failed` as `rejected`.
 */
export function assetStatus(stored: string): AssetStatus {
  if (stored === 'validated') return 'validated';
  if (stored === 'rejected' || stored === 'failed') return 'rejected';
  return 'validating';
}

/** The asset at `now`: a created one is `validating` until `readyAt`, derived on every read. */
export function assetAt(asset: UserAssetRecord, now: string): UserAssetRecord {
  const ended = asset.status === 'validating' && asset.readyAt && asset.readyAt <= now;
  return ended && asset.outcome ? { ...asset, status: asset.outcome } : asset;
}

/** The stored statuses a `status` filter matches. */
export function storedStatuses(status: AssetStatus): string[] {
  if (status === 'validating') return ['validating', 'pending'];
  if (status === 'rejected') return ['rejected', 'failed'];
  return ['validated'];
}

/** The object the environment and object operations of `kind` (the asset's own) answer. */
export function toUserAsset<K extends UserAssetKind>(asset: UserAssetRecord, kind: K) {
  return {
    id: asset.id,
    object: kind,
    name: asset.name,
    description: asset.description ?? null,
    metadata: asset.metadata ?? {},
    status: assetStatus(asset.status),
    created_at: asset.createdAt,
  };
}
