/**
 * RL runs (API document section 1: "Train a robot policy in simulation from a task spec; yields
 * the policy, its scene and a verdict"). Section 2.6 shows no fields: every shape here is our
 * inference (DESIGN.md section 7), an Evaluation's where it applies.
 */
import { z } from '@hono/zod-openapi';
import { INFERRED } from '../../core/contract.js';
import { runRoutes } from '../../engine/contract/run-routes.js';
import {
  Interval,
  ProducedPolicy,
  RunCreateCommon,
  type RunKindAddress,
  runResource,
  StepCounter,
} from '../../engine/contract/run-shapes.js';

export const ADDRESS = {
  name: 'rl_run',
  prefix: 'rl',
  collection: 'rl_runs',
  scope: 'rl_runs',
  tag: 'RL runs',
  tagDescription:
    'Train a robot policy in simulation from a task spec; yields the policy, its scene and a verdict.',
} as const satisfies RunKindAddress;

/** Its phases, in order; `training` is made of steps, one per iteration. */
export const RL_PHASES = ['building_scene', 'training', 'evaluating', 'packaging'] as const;

/** The defaults of `config`, which a run's body shows resolved. */
export const RL_CONFIG_DEFAULTS = { iterations: 20, success_threshold: 0.7 } as const;

export const RL_DEFAULT_TIER = 'gpu-h100';

const Config = z
  .object({
    iterations: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .openapi({
        description: `Training iterations, 1 to 1000 (default ${RL_CONFIG_DEFAULTS.iterations}).`,
      }),
    success_threshold: z
      .number()
      .min(0)
      .max(1)
      .openapi({
        description: `The evaluation success rate the verdict needs to pass, 0 to 1 (default ${RL_CONFIG_DEFAULTS.success_threshold}).`,
      }),
  })
  .strict();

const CreateRlRunBody = z
  .object({
    robot: z.string().openapi({ description: 'A catalog robot id.', example: 'franka_panda' }),
    task: z.string().openapi({
      description: "A catalog task id; it must accept one of the robot's embodiments.",
      example: 'pick_place',
    }),
    environment: z.string().optional().openapi({
      description: "A catalog environment id (default: the catalog's default environment).",
    }),
    hardware_tier: z
      .string()
      .optional()
      .openapi({ description: `A catalog hardware tier (default \`${RL_DEFAULT_TIER}\`).` }),
    config: Config.partial().optional(),
    name: z.string().min(1).max(160).optional().openapi({
      description: "The trained policy's name (default `<robot> <task> RL policy`).",
    }),
    ...RunCreateCommon,
  })
  .strict()
  .openapi('CreateRlRunBody', {
    'x-inferred': true,
    example: { robot: 'franka_panda', task: 'pick_place', config: { iterations: 100 } },
  });

/** What `success()` yields (output.ts `resultOf`): the policy, its scene and the verdict. */
export const RlRunResult = z
  .object({
    policy: ProducedPolicy,
    scene: z.object({ id: z.string(), environment: z.string(), path: z.string() }),
    verdict: z.object({
      passed: z.boolean(),
      success_rate: z.number(),
      interval: Interval,
      n: z.number().int(),
      threshold: z.number(),
    }),
    iterations: z.number().int(),
  })
  .openapi('RlRunResult', INFERRED);

export const RlRun = runResource(
  'rl_run',
  {
    robot: z.string(),
    task: z.string(),
    environment: z.string(),
    hardware_tier: z.string(),
    config: Config,
    name: z.string().openapi({ description: "The trained policy's name." }),
    iterations: StepCounter.nullable().openapi({
      description: 'Training iterations, done of total.',
    }),
  },
  RlRunResult,
  `\`policy\` ({id, name, robot}), \`scene\` ({id, environment, path}), \`verdict\` ({passed, success_rate, interval, n, threshold}) and \`iterations\`.`,
);

export const ROUTES = runRoutes({
  ...ADDRESS,
  createBody: CreateRlRunBody,
  resource: RlRun,
  yields: 'the trained policy (listed in the catalog), its simulation scene and a verdict',
});
