/** A scenario run's create body checked against the world: 400 naming a reference it cannot run. */

import { invalidParam, MESSAGES } from '../../core/errors.js';
import type { RunRequest } from '../../core/records.js';
import type { World } from '../../engine/run-kind.js';
import { type KindTimeline, parseRunOptions } from '../../engine/run-options.js';
import { hardwareTierOf, sharedRequestFields, unknownInCatalog } from '../../engine/run-request.js';
import {
  DEFAULT_EPISODES_PER_SCENARIO,
  DEFAULT_HARDWARE_TIER,
  SCENARIO_RUN_ERROR_CODES,
  SCENARIO_RUN_PHASES,
} from './contract.js';

/** A default run of 2 scenarios of 10 episodes takes 7.5 virtual seconds. */
export const TIMELINE: KindTimeline = {
  phases: SCENARIO_RUN_PHASES,
  stepPhase: 'running',
  stepNoun: 'episode',
  failureCodes: SCENARIO_RUN_ERROR_CODES,
  defaults: { queue: 0.5, provisioning: 1, episode: 0.25, aggregating: 0.5, packaging: 0.5 },
};

export interface ScenarioRunRequest extends RunRequest {
  policy: string;
  scenarios: string[];
  /** Each scenario's task (internal), resolved at creation: a later delete changes no figure. */
  scenario_tasks: string[];
  episodes_per_scenario: number;
  hardware_tier: string;
}

/** Each scenario id once, each one the account may run; answers their tasks, in order. */
function scenarioTasks(ids: string[], world: World): string[] {
  return ids.map((id, i) => {
    if (ids.indexOf(id) !== i)
      throw invalidParam(`scenarios.${i}`, MESSAGES.listedTwice(id, 'scenarios'));
    const scenario = world.scenario(id);
    if (!scenario) throw invalidParam(`scenarios.${i}`, MESSAGES.notFound('scenario', id));
    return scenario.task;
  });
}

/** @example prepareScenarioRun({ policy, scenarios: ['scn_builtin_push'] }, world) */
export function prepareScenarioRun(
  body: Record<string, unknown>,
  world: World,
): ScenarioRunRequest {
  const policy = body.policy as string;
  if (!world.policy(policy)) throw unknownInCatalog('policy', 'policy', policy);
  const scenarios = body.scenarios as string[];
  const tasks = scenarioTasks(scenarios, world);
  const tier = hardwareTierOf(body, world.catalog, DEFAULT_HARDWARE_TIER);
  parseRunOptions(TIMELINE, (body.options ?? {}) as Record<string, unknown>);
  return {
    policy,
    scenarios,
    scenario_tasks: tasks,
    episodes_per_scenario:
      (body.episodes_per_scenario as number | undefined) ?? DEFAULT_EPISODES_PER_SCENARIO,
    hardware_tier: tier,
    ...sharedRequestFields(body),
  };
}
