import { builtinScenarioRefs } from '../core/builtin-scenarios.js';
import type { Account } from '../core/records.js';
import type { Deps } from './deps.js';
import type { PolicyEntry, World } from './run-kind.js';

/** Policies an account may name (inferred): the catalog's, then its runs' own, oldest first. */
export function policiesOf(
  deps: Deps,
  accountId: string,
): (PolicyEntry & { source_run: string | null })[] {
  return [...catalogPolicies(deps), ...deps.store.runs.producedPolicies(accountId)];
}

/** The catalog's policies, as `policiesOf` lists them. */
function catalogPolicies(deps: Deps): (PolicyEntry & { source_run: null })[] {
  return deps.catalog.policies.map((p) => ({ ...p, source_run: null }));
}

/**
 * What a create request of `account` is checked against (`RunKind.prepare`), read lazily.
 * @example kind.prepare(body, worldOf(deps, account))
 */
export function worldOf(deps: Deps, account: Account): World {
  return {
    catalog: deps.catalog,
    // As `policiesOf` finds it, the catalog's read first: a produced policy means reading the
    // account's succeeded runs.
    policy: (id) =>
      catalogPolicies(deps).find((p) => p.id === id) ??
      deps.store.runs.producedPolicies(account.id).find((p) => p.id === id),
    scenario: (id) => {
      const found =
        builtinScenarioRefs(deps.catalog).find((s) => s.id === id) ??
        deps.store.scenarios.get(account.id, id);
      return found && { id: found.id, task: found.task, robot: found.robot };
    },
    activeRuns: (kind) => deps.store.runs.active(account.id, kind),
  };
}
