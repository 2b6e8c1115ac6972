import type { Catalog } from './catalog.js';

/** What a built-in scenario is made of: its id, its task and the robot it pairs with it. */
export interface BuiltinScenarioRef {
  id: string;
  task: string;
  robot: string;
}

/**
 * The built-in scenarios' ids, tasks and robots (inferred, DESIGN.md section 7): one per catalog
 * task, with the first robot sharing an embodiment (areas/scenarios/builtin.ts resolves the rest).
 * @example builtinScenarioRefs(catalog)[0].id // 'scn_builtin_pick_place'
 */
export function builtinScenarioRefs(catalog: Catalog): BuiltinScenarioRef[] {
  return catalog.tasks.flatMap((task) => {
    const robot = catalog.robots.find((r) =>
      r.embodiments.some((e) => task.embodiments.includes(e)),
    );
    return robot ? [{ id: `scn_builtin_${task.id}`, task: task.id, robot: robot.id }] : [];
  });
}
