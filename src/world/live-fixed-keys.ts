import type { ScenarioFile } from '../areas/scenarios/scenario-file.js';
import { digestSecret } from '../core/sha256.js';
import type { Deps } from '../engine/deps.js';

export interface LiveFixedKey {
  secret: string;
  accountName: string;
}

/**
 * The fixed secrets of `scenarios` that open a live key, with its account's name, in scenario
 * order: the store keeps only digests, so only a scenario spells a secret out.
 * @example liveFixedKeys(deps, [deps.scenarios.loaded]) // [{ secret, accountName: 'Default' }]
 */
export function liveFixedKeys(deps: Deps, scenarios: ScenarioFile[]): LiveFixedKey[] {
  const secrets = scenarios.flatMap(({ accounts }) =>
    accounts.flatMap(({ keys }) => (keys ?? []).flatMap(({ secret }) => secret ?? [])),
  );
  return [...new Set(secrets)].flatMap((secret) => liveFixedKey(deps, secret) ?? []);
}

/**
 * The live key this secret opens (not revoked or expired on its account's clock), with its account.
 * @example liveFixedKey(deps, 'svc_test_emulator_default')?.accountName // 'Default'
 */
export function liveFixedKey(deps: Deps, secret: string): LiveFixedKey | undefined {
  const { store, clocks } = deps;
  const key = store.keys.findByDigest(digestSecret(secret));
  const account = key && store.accounts.get(key.accountId);
  if (!key || !account || key.revokedAt) return undefined;
  if (key.expiresAt && Date.parse(key.expiresAt) <= clocks.now(account)) return undefined;
  return { secret, accountName: account.name };
}
