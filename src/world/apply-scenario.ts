import { createAccount, createKey } from '../areas/accounts/make-account.js';
import type { ScenarioFile } from '../areas/scenarios/scenario-file.js';
import { seedUserAsset } from '../areas/scenarios/seed-asset.js';
import { seedWebhookEndpoint } from '../areas/webhooks/endpoints.js';
import { parseClockMode } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Deps } from '../engine/deps.js';
import { fullScopes } from '../engine/kind-registry.js';
import { seedKind, seedRun } from '../engine/seed-run.js';
import { DataFileError } from './load-scenario.js';

/**
 * Runs `apply` for the part of a scenario at `field` (`accounts.0.runs.1`): a refusal names that
 * field path with its own `param` under it, so the file's field at fault is the one named.
 */
function at<T>(field: string, apply: () => T): T {
  try {
    return apply();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    throw ApiError.of(err.code, { ...err, param: err.param ? `${field}.${err.param}` : field });
  }
}

/**
 * Builds a scenario's world into an empty store, in one transaction. Accounts without keys get a
 * full-scope key with a seeded secret. Pass `only` to rebuild one account. A part the world
 * refuses (a run naming a policy the catalog lacks) throws its error, `param` the field path in
 * the file (`accounts.0.runs.0.policy`).
 */
export function applyScenario(deps: Deps, scenario: ScenarioFile, only?: string): void {
  const defaults = {
    clockStart: scenario.clock?.start ? Date.parse(scenario.clock.start) : undefined,
    clockMode: scenario.clock?.mode ? parseClockMode(scenario.clock.mode) : undefined,
  };
  deps.store.tx(() => {
    for (const [i, input] of scenario.accounts.entries()) {
      if (only && input.id !== only) continue;
      const path = `accounts.${i}`;
      const account = at(path, () => createAccount(deps, input, defaults));
      const keys = input.keys ?? [{ name: 'default', scopes: fullScopes(deps.kinds) }];
      for (const [k, key] of keys.entries())
        at(`${path}.keys.${k}`, () => createKey(deps, account, key));
      for (const registered of deps.kinds.list) {
        const { collection } = registered.kind;
        const seeds = input[collection];
        if (!registered.seed || !Array.isArray(seeds)) continue;
        for (const [j, seed] of seeds.entries())
          at(`${path}.${collection}.${j}`, () => seedKind(deps, account, registered, seed));
      }
      for (const [j, r] of (input.runs ?? []).entries())
        at(`${path}.runs.${j}`, () => seedRun(deps, account, r));
      for (const [j, w] of (input.webhook_endpoints ?? []).entries())
        at(`${path}.webhook_endpoints.${j}`, () => seedWebhookEndpoint(deps, account, w));
      for (const [j, a] of (input.environments ?? []).entries())
        at(`${path}.environments.${j}`, () => seedUserAsset(deps, account, 'environment', a));
      for (const [j, a] of (input.objects ?? []).entries())
        at(`${path}.objects.${j}`, () => seedUserAsset(deps, account, 'object', a));
    }
  });
}

/**
 * The scenario applied at start: a part the world refuses is a bad file, naming it and the field
 * (`scenarios/mine.yaml (field accounts.0.runs.0.policy): No such policy ...`).
 */
export function applyScenarioFile(deps: Deps, scenario: ScenarioFile, file: string): void {
  try {
    applyScenario(deps, scenario);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    throw new DataFileError(file, err.param, err.message);
  }
}
