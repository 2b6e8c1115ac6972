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
  const found = new Map<string, LiveFixedKey>();
  for (const scenario of scenarios) {
    for (const input of scenario.accounts) {
      for (const { secret } of input.keys ?? []) {
        if (!secret || found.has(secret)) continue;
        const live = liveFixedKey(deps, secret);
        if (live) found.set(secret, live);
      }
    }
  }
  return [...found.values()];
}

/**
 * The live key this secret opens, with its account's name; undefined if none, or if it is
 * revoked or expired on its account's clock.
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
