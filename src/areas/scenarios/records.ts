/** User environments and objects as the store keeps them. */
export type UserAssetKind = 'environment' | 'object';

export interface UserAssetRecord {
  id: string;
  accountId: string;
  kind: UserAssetKind;
  name: string;
  status: string;
  createdAt: string;
  /** Created through the API (inferred): `validating` until `readyAt`, then `outcome`. */
  description?: string | null;
  metadata?: Record<string, unknown>;
  readyAt?: string | null;
  outcome?: string | null;
}
