import { addFaultRule } from '../areas/faults/install-faults.js';
import type { ScenarioFile } from '../areas/scenarios/scenario-file.js';
import type { Deps } from '../engine/deps.js';
import { applyScenario } from './apply-scenario.js';

/** DESIGN.md section 5 `POST /_control/reset`: new state, not cleanup. */
export function resetWorld(deps: Deps, opts: { scenario?: ScenarioFile; account?: string }): void {
  if (opts.scenario) deps.scenarios.loaded = opts.scenario;
  const scenario = deps.scenarios.loaded;
  const id = opts.account;
  if (id) {
    // The account's id counters restart too, so the same requests give the same ids again
    // (DESIGN.md section 1.2); an account made at run time keeps its keys, and so their counters.
    const inScenario = scenario.accounts.some((a) => a.id === id);
    if (inScenario) {
      deps.store.tx(() => {
        deps.store.accounts.remove(id);
        deps.store.sequences.clearScope(id);
      });
    } else {
      deps.store.clearAccountResources(id);
      deps.store.sequences.clearScope(id, [`${id}/key`, `${id}/secret`]);
    }
    deps.limiter.forget(id);
    deps.journal.remove({ account: id });
    deps.coverage.forget(id);
    deps.webhooks.clear(id);
    deps.faults.sweeps.forget(id);
    if (inScenario) {
      deps.clocks.forget(id);
      applyScenario(deps, scenario, id);
    }
    return;
  }
  deps.store.archives.clear();
  deps.store.clear();
  deps.clocks.clear();
  deps.ids.resetRequests();
  deps.limiter.clear();
  deps.journal.remove();
  deps.coverage.clear();
  deps.webhooks.clear();
  deps.faults.sweeps.clear();
  applyScenario(deps, scenario);
  installScenarioFaults(deps, scenario);
}

/** The scenario's fault rules replace whatever rules were installed. */
export function installScenarioFaults(deps: Deps, scenario: ScenarioFile): void {
  deps.faults.clear();
  for (const rule of scenario.faults ?? []) addFaultRule(deps, rule);
}
