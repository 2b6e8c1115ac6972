import type { ScenarioFile } from '../contract/scenario-file.js';
import { digestSecret } from '../domain/sha256.js';
import type { Deps } from '../runtime/deps.js';

export interface LiveFixedKey {
  secret: string;
  accountName: string;
}

/**
 * The fixed secrets of `scenarios` (keys given a `secret`) that open a live key of the store,
 * with the name of the account that owns it, in scenario order. The store keeps only digests,
 * so a secret is known only where a scenario spells it out.
 * @example liveFixedKeys(deps, [deps.scenarios.loaded]) // [{ secret: 'svc_test_...', accountName: 'Default' }]
 */
export function liveFixedKeys(deps: Deps, scenarios: ScenarioFile[]): LiveFixedKey[] {
  const { store, clocks } = deps;
  const found = new Map<string, LiveFixedKey>();
  for (const scenario of scenarios) {
    for (const input of scenario.accounts) {
      for (const { secret } of input.keys ?? []) {
        if (!secret || found.has(secret)) continue;
        const key = store.keys.findByDigest(digestSecret(secret));
        const account = key && store.accounts.get(key.accountId);
        if (!key || !account || key.revokedAt) continue;
        if (key.expiresAt && Date.parse(key.expiresAt) <= clocks.now(account)) continue;
        found.set(secret, { secret, accountName: account.name });
      }
    }
  }
  return [...found.values()];
}
