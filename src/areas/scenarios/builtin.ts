import { builtinScenarioRefs } from '../../core/builtin-scenarios.js';
import type { Catalog } from '../../core/catalog.js';
import type { Scenario } from './contract.js';
import { resolveScenario } from './resolve-scenario.js';

/** A fixed instant, so built-in scenarios read the same on every run (our inference). */
const BUILTIN_CREATED_AT = '2026-01-01T00:00:00.000Z';

/**
 * The built-in scenarios (inferred, DESIGN.md section 7): one per catalog task, with the first
 * robot sharing an embodiment and every other field at its default (API document section 4.3).
 * @example builtinScenarios(catalog)[0].id // 'scn_builtin_pick_place'
 */
export function builtinScenarios(catalog: Catalog): Scenario[] {
  return builtinScenarioRefs(catalog).map(({ id, task, robot }) => ({
    id,
    object: 'scenario' as const,
    ...resolveScenario({ robot, task }, catalog, () => undefined),
    builtin: true,
    created_at: BUILTIN_CREATED_AT,
  }));
}
