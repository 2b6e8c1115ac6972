import type { ScenarioFile } from '../contract/scenario-file.js';
import type { Deps } from '../runtime/deps.js';
import { applyScenario } from './apply-scenario.js';
import { addFaultRule } from './faults.js';

/** DESIGN.md section 5 `POST /_control/reset`: new state, not cleanup. */
export function resetWorld(deps: Deps, opts: { scenario?: ScenarioFile; account?: string }): void {
  if (opts.scenario) deps.scenarios.loaded = opts.scenario;
  const scenario = deps.scenarios.loaded;
  if (opts.account) {
    const inScenario = scenario.accounts.some((a) => a.id === opts.account);
    // The account's id counters restart too, so the same requests give the same ids again
    // (DESIGN.md section 1.2); an account made at run time keeps its keys, and so their counters.
    if (inScenario) {
      deps.store.tx(() => {
        deps.store.accounts.remove(opts.account!);
        deps.store.sequences.clearScope(opts.account!);
      });
      deps.limiter.forget(opts.account);
      deps.journal.remove({ account: opts.account });
      deps.coverage.forget(opts.account);
      deps.webhooks.clear(opts.account);
      deps.clocks.forget(opts.account);
      applyScenario(deps, scenario, opts.account);
    } else {
      deps.store.clearAccountResources(opts.account);
      const keep = ['key', 'secret'].map((p) => `${opts.account}/${p}`);
      deps.store.sequences.clearScope(opts.account, keep);
      deps.limiter.forget(opts.account);
      deps.journal.remove({ account: opts.account });
      deps.coverage.forget(opts.account);
      deps.webhooks.clear(opts.account);
    }
    return;
  }
  deps.store.clear();
  deps.clocks.clear();
  deps.ids.resetRequests();
  deps.limiter.clear();
  deps.journal.remove();
  deps.coverage.clear();
  deps.webhooks.clear();
  applyScenario(deps, scenario);
  installScenarioFaults(deps, scenario);
}

/** The scenario's fault rules replace whatever rules were installed. */
export function installScenarioFaults(deps: Deps, scenario: ScenarioFile): void {
  deps.faults.clear();
  for (const rule of scenario.faults ?? []) addFaultRule(deps, rule);
}
