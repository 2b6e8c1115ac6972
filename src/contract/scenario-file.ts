import { z } from '@hono/zod-openapi';
import {
  AccountInput,
  ClockInstant,
  ClockModeSchema,
  EvaluationInput,
  KeyInput,
  RunSeedInput,
  TwinInput,
  UserAssetInput,
  WebhookEndpointInput,
} from './control-inputs.js';
import { FaultRuleInput } from './faults.js';
import { OutcomePlan } from './outcomes.js';

/** One account of a scenario: the account itself and everything it owns. */
export const ScenarioAccount = AccountInput.extend({
  keys: z.array(KeyInput).optional(),
  evaluations: z.array(EvaluationInput).optional(),
  /** Runs of any kind, each `{kind, ...}` (`ControlRunInput`). */
  runs: z.array(RunSeedInput).optional(),
  twins: z.array(TwinInput).optional(),
  webhook_endpoints: z.array(WebhookEndpointInput).optional(),
  environments: z.array(UserAssetInput).optional(),
  objects: z.array(UserAssetInput).optional(),
}).strict();

/** A named world in `scenarios/<name>.json`, loadable at start and at run time. */
export const ScenarioFile = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    clock: z
      .object({
        start: ClockInstant.optional(),
        mode: ClockModeSchema.optional(),
      })
      .strict()
      .optional(),
    accounts: z.array(ScenarioAccount).default([]),
    /** Fault rules installed on load and on every full reset. */
    faults: z.array(FaultRuleInput).optional(),
    outcome_rules: z
      .array(
        z
          .object({
            match: z
              .object({
                spec_name: z.string().optional(),
                label: z.string().optional(),
                kind: z.string().optional(),
              })
              .strict(),
            outcomes: OutcomePlan,
          })
          .strict(),
      )
      .optional(),
  })
  .strict()
  .openapi('ScenarioFile');
export type ScenarioFile = z.infer<typeof ScenarioFile>;
