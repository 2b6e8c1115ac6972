/**
 * An RL run's create body checked against the catalog as `POST /v1/scenarios` checks (API
 * document section 4.3): unknown ids are 400, and the task must accept a robot's embodiment.
 */

import { defaultEnvironment } from '../../core/catalog.js';
import { invalidParam, MESSAGES } from '../../core/errors.js';
import type { KindPlan } from '../../engine/kind-plan.js';
import type { RunRequest } from '../../engine/records.js';
import type { World } from '../../engine/run-kind.js';
import { parseRunOptions } from '../../engine/run-options.js';
import { hardwareTierOf, sharedRequestFields, unknownInCatalog } from '../../engine/run-request.js';
import { RL_CONFIG_DEFAULTS, RL_DEFAULT_TIER, RL_PHASES } from './contract.js';

/** What an RL run keeps of its create body: every default resolved. */
export interface RlRunRequest extends RunRequest {
  robot: string;
  task: string;
  /** The robot's first embodiment the task accepts (as section 4.3 picks a scenario's). */
  embodiment: string;
  environment: string;
  hardware_tier: string;
  config: { iterations: number; success_threshold: number };
  name: string;
}

const pad4 = (n: number) => String(n).padStart(4, '0');

/** Its timeline and failure codes, stated once: a default 20-iteration run lasts 7.5 s. */
export const RL_PLAN = {
  timeline: {
    phases: RL_PHASES,
    stepPhase: 'training',
    stepNoun: 'iteration',
    defaults: { queue: 0.5, building_scene: 1, iteration: 0.2, evaluating: 1.5, packaging: 0.5 },
  },
  failures: {
    messages: {
      task_invalid: 'The task cannot be set up for the robot in this environment.',
      training_diverged: 'Training diverged: the policy loss became non-finite.',
    },
    invalidInput: { code: 'task_invalid', param: 'task' },
    failedStep: {
      code: 'training_diverged',
      location: (step: number) => `iterations/${pad4(step)}`,
    },
  },
} satisfies KindPlan;

/**
 * The stored request of a validated create body.
 * @example prepareRlRun({ robot: 'franka_panda', task: 'push' }, world).environment // 'tabletop_basic'
 */
export function prepareRlRun(body: Record<string, unknown>, world: World): RlRunRequest {
  const { catalog } = world;
  parseRunOptions(RL_PLAN, (body.options ?? {}) as Record<string, unknown>);
  const robot = catalog.robots.find((r) => r.id === body.robot);
  if (!robot) throw unknownInCatalog('robot', 'robot', String(body.robot));
  const task = catalog.tasks.find((t) => t.id === body.task);
  if (!task) throw unknownInCatalog('task', 'task', String(body.task));
  const embodiment = robot.embodiments.find((e) => task.embodiments.includes(e));
  if (!embodiment) throw invalidParam('task', MESSAGES.noSharedEmbodiment(task.id, robot.id));
  const environment = (body.environment as string | undefined) ?? defaultEnvironment(catalog);
  if (!catalog.environments.some((e) => e.id === environment))
    throw unknownInCatalog('environment', 'environment', environment);
  const tier = hardwareTierOf(body, catalog, RL_DEFAULT_TIER);
  return {
    robot: robot.id,
    task: task.id,
    embodiment,
    environment,
    hardware_tier: tier,
    config: { ...RL_CONFIG_DEFAULTS, ...(body.config as Partial<RlRunRequest['config']>) },
    name: (body.name as string | undefined) ?? `${robot.id} ${task.id} RL policy`,
    ...sharedRequestFields(body),
  };
}
