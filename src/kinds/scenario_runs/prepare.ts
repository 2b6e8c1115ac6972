/** A scenario run's create body checked against the world: 400 naming a reference it cannot run. */

import { invalidParam, MESSAGES } from '../../core/errors.js';
import type { KindPlan } from '../../engine/kind-plan.js';
import type { RunRequest } from '../../engine/records.js';
import type { World } from '../../engine/run-kind.js';
import { parseRunOptions } from '../../engine/run-options.js';
import { hardwareTierOf, sharedRequestFields, unknownInCatalog } from '../../engine/run-request.js';
import {
  DEFAULT_EPISODES_PER_SCENARIO,
  DEFAULT_HARDWARE_TIER,
  SCENARIO_RUN_PHASES,
} from './contract.js';
import { episodeName } from './outputs.js';

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

export interface ScenarioRunContext {
  request: ScenarioRunRequest;
  rate: number;
}

/** Global step `index` (1-based, scenario by scenario) as its scenario and episode. */
export function locate(request: ScenarioRunRequest, index: number) {
  const per = request.episodes_per_scenario;
  const at = Math.floor((index - 1) / per);
  return { scenario: request.scenarios[at]!, episode: ((index - 1) % per) + 1 };
}

/**
 * Its timeline and failure codes, stated once (`interrupted` is every kind's resumable code;
 * `scenario_invalid` is not resumable): a default run of 2 scenarios of 10 episodes takes 7.5 s.
 */
export const PLAN: KindPlan<ScenarioRunContext> = {
  timeline: {
    phases: SCENARIO_RUN_PHASES,
    stepPhase: 'running',
    stepNoun: 'episode',
    defaults: { queue: 0.5, provisioning: 1, episode: 0.25, aggregating: 0.5, packaging: 0.5 },
  },
  failures: {
    messages: {
      policy_failed: 'The policy failed during an episode.',
      scenario_invalid: 'A scenario could not be provisioned.',
    },
    invalidInput: { code: 'scenario_invalid', param: 'scenarios' },
    failedStep: {
      code: 'policy_failed',
      location(step, ctx) {
        const failing = locate(ctx.request, step);
        return `scenarios/${failing.scenario}/episodes/${episodeName(failing.episode)}`;
      },
    },
  },
};

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
  parseRunOptions(PLAN, (body.options ?? {}) as Record<string, unknown>);
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
