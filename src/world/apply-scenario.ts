import type { ScenarioFile } from '../contract/scenario-file.js';
import { fullScopes } from '../domain/kind-registry.js';
import { parseClockMode } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';
import { createAccount, createKey } from './accounts.js';
import { seedUserAsset, seedWebhookEndpoint } from './seed.js';
import { seedKind, seedRun } from './seed-run.js';

/**
 * Builds a scenario's world into an empty store, in one transaction. Accounts without keys get a
 * full-scope key with a seeded secret. Pass `only` to rebuild one account.
 */
export function applyScenario(deps: Deps, scenario: ScenarioFile, only?: string): void {
  const defaults = {
    clockStart: scenario.clock?.start ? Date.parse(scenario.clock.start) : undefined,
    clockMode: scenario.clock?.mode ? parseClockMode(scenario.clock.mode) : undefined,
  };
  deps.store.tx(() => {
    for (const input of scenario.accounts) {
      if (only && input.id !== only) continue;
      const account = createAccount(deps, input, defaults);
      const keys = input.keys ?? [{ name: 'default', scopes: fullScopes(deps.kinds) }];
      for (const key of keys) createKey(deps, account, key);
      for (const registered of deps.kinds.list) {
        const seeds = input[registered.kind.collection];
        if (registered.seed && Array.isArray(seeds))
          for (const seed of seeds) seedKind(deps, account, registered, seed);
      }
      for (const r of input.runs ?? []) seedRun(deps, account, r);
      for (const w of input.webhook_endpoints ?? []) seedWebhookEndpoint(deps, account, w);
      for (const a of input.environments ?? []) seedUserAsset(deps, account, 'environment', a);
      for (const a of input.objects ?? []) seedUserAsset(deps, account, 'object', a);
    }
  });
}
