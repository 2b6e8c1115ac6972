import type { Scenario } from '../areas/scenarios/contract.js';
import { resolveScenario } from '../areas/scenarios/resolve-scenario.js';
import type { Catalog } from './catalog.js';

/** A fixed instant, so built-in scenarios read the same on every run (our inference). */
const BUILTIN_CREATED_AT = '2026-01-01T00:00:00.000Z';

/**
 * The built-in scenarios (inferred, DESIGN.md section 7): one per catalog task, with the first
 * robot sharing an embodiment and every other field at its default (API document section 4.3).
 * @example builtinScenarios(catalog)[0].id // 'scn_builtin_pick_place'
 */
export function builtinScenarios(catalog: Catalog): Scenario[] {
  return catalog.tasks.flatMap((task) => {
    const robot = catalog.robots.find((r) =>
      r.embodiments.some((e) => task.embodiments.includes(e)),
    );
    if (!robot) return [];
    const resolved = resolveScenario({ robot: robot.id, task: task.id }, catalog, () => undefined);
    return [
      {
        id: `scn_builtin_${task.id}`,
        object: 'scenario' as const,
        ...resolved,
        builtin: true,
        created_at: BUILTIN_CREATED_AT,
      },
    ];
  });
}
