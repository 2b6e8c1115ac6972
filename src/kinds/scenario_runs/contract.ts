/**
 * Scenario runs (API document section 1: "Run a policy across built-in simulated scenarios; yields
 * success rate, failure reasons, edge cases"): every field inferred (section 2.6: "not shown").
 */
import { z } from '@hono/zod-openapi';
import { INFERRED } from '../../core/contract.js';
import { runRoutes } from '../../engine/contract/run-routes.js';
import {
  Interval,
  RunCreateCommon,
  type RunKindAddress,
  runResource,
  StepCounter,
} from '../../engine/contract/run-shapes.js';

export const ADDRESS = {
  name: 'scenario_run',
  prefix: 'scnrun',
  collection: 'scenario_runs',
  scope: 'scenario_runs',
  tag: 'Scenario runs',
  tagDescription:
    'Run a policy across built-in simulated scenarios; yields success rate, failure reasons, edge cases (beta).',
} as const satisfies RunKindAddress;

export const SCENARIO_RUN_PHASES = ['provisioning', 'running', 'aggregating', 'packaging'] as const;

const MAX_SCENARIOS = 20;
const MAX_EPISODES_PER_SCENARIO = 200;
export const DEFAULT_EPISODES_PER_SCENARIO = 10;
export const DEFAULT_HARDWARE_TIER = 'gpu-a10';

const CreateScenarioRunBody = z
  .object({
    policy: z.string().min(1).openapi({
      description:
        'A catalog policy, or one a succeeded training or RL run of the account produced.',
    }),
    scenarios: z
      .array(z.string().min(1))
      .min(1)
      .max(MAX_SCENARIOS)
      .openapi({
        description: `1 to ${MAX_SCENARIOS} distinct scenario ids: built-in (\`scn_builtin_<task>\`) or the account's own.`,
      }),
    episodes_per_scenario: z
      .number()
      .int()
      .min(1)
      .max(MAX_EPISODES_PER_SCENARIO)
      .optional()
      .openapi({
        description: `Episodes run in each scenario; default ${DEFAULT_EPISODES_PER_SCENARIO}.`,
      }),
    hardware_tier: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: `A catalog hardware tier; default \`${DEFAULT_HARDWARE_TIER}\`.` }),
    ...RunCreateCommon,
  })
  .strict()
  .openapi('CreateScenarioRunRequest', {
    example: {
      policy: 'pol_01KA0000000000000000PANDA1',
      scenarios: ['scn_builtin_pick_place'],
      episodes_per_scenario: 10,
    },
  });

/** What `success()` yields (outputs.ts `scenarioRunResult`): overall, then per scenario. */
export const ScenarioRunResult = z
  .object({
    policy: z.string(),
    success_rate: z.number(),
    interval: Interval,
    n: z.number().int(),
    scenarios: z.array(
      z.object({
        scenario: z.string(),
        task: z.string(),
        success_rate: z.number(),
        interval: Interval,
        n: z.number().int(),
        failure_reasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
        edge_cases: z.array(z.object({ episode: z.number().int(), description: z.string() })),
      }),
    ),
  })
  .openapi('ScenarioRunResult', INFERRED);
export type ScenarioRunResult = z.infer<typeof ScenarioRunResult>;

export const ScenarioRun = runResource(
  'scenario_run',
  {
    policy: z.string(),
    scenarios: z.array(z.string()),
    episodes_per_scenario: z.number().int(),
    hardware_tier: z.string(),
    episodes: StepCounter.nullable(),
  },
  ScenarioRunResult,
  '`policy`, `success_rate` over every episode with its 95% Wilson `interval` and `n`, and per scenario its `success_rate`, `interval`, `n`, `failure_reasons` and `edge_cases`.',
);

export const ROUTES = runRoutes({
  ...ADDRESS,
  createBody: CreateScenarioRunBody,
  resource: ScenarioRun,
  yields:
    'a success rate with its 95% Wilson interval, failure reasons and edge cases, per scenario',
});
