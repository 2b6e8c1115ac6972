/**
 * Training runs (API document section 1: "Fine-tune a policy on a dataset, one run per policy";
 * DESIGN.md section 7), all inferred: the body is an Evaluation's shape where it applies.
 */
import { z } from '@hono/zod-openapi';
import { INFERRED } from '../../core/contract.js';
import { EXAMPLE_ULID } from '../../core/error-answers.js';
import { MESSAGES } from '../../core/errors.js';
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
  name: 'training_run',
  prefix: 'train',
  collection: 'training_runs',
  scope: 'training_runs',
  tag: 'Training runs',
  tagDescription: 'Fine-tune a policy on a dataset, one run per policy.',
} as const satisfies RunKindAddress;

/** The phases of an attempt, in order; `training` is made of epochs. */
export const TRAINING_PHASES = ['preparing', 'training', 'evaluating', 'exporting'] as const;

export const DEFAULT_TRAINING_TIER = 'gpu-a10';

export const TRAINING_CONFIG_DEFAULTS = { epochs: 5, learning_rate: 0.0003 } as const;

const TrainingConfig = z
  .object({
    epochs: z.number().int().min(1).max(100).optional().openapi({
      description: 'Epochs over the dataset, 1 to 100; default 5.',
    }),
    learning_rate: z.number().gt(0).max(1).optional().openapi({
      description: 'Greater than 0, at most 1; default 0.0003.',
    }),
  })
  .strict();

const CreateTrainingRunBody = z
  .object({
    policy: z.string().min(1).openapi({
      description: "The policy to fine-tune: a catalog policy or one the account's runs produced.",
    }),
    dataset: z.string().min(1).openapi({
      description: "A catalog dataset id; its robot must be the policy's robot.",
    }),
    hardware_tier: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: `A catalog hardware tier; default \`${DEFAULT_TRAINING_TIER}\`.` }),
    config: TrainingConfig.optional(),
    name: z.string().min(1).max(160).optional().openapi({
      description:
        "The new policy's name; default `<base policy name> fine-tuned on <dataset name>`.",
    }),
    ...RunCreateCommon,
  })
  .strict()
  .openapi('CreateTrainingRunRequest', {
    ...INFERRED,
    example: { policy: 'pol_01KA0000000000000000PANDA1', dataset: 'ds_01KA0000000000000000PANDA1' },
  });

/** What `success()` yields (kind.ts): the fine-tuned policy, its metrics and its checkpoint. */
export const TrainingRunResult = z
  .object({
    policy: ProducedPolicy,
    base_policy: z.string(),
    dataset: z.string(),
    epochs: z.number().int(),
    metrics: z.object({
      final_loss: z.number(),
      eval_success_rate: z.number(),
      interval: Interval,
      n: z.number().int(),
    }),
    checkpoint: z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() }),
  })
  .openapi('TrainingRunResult', INFERRED);

export const TrainingRun = runResource(
  'training_run',
  {
    policy: z.string().openapi({ description: 'The base policy being fine-tuned.' }),
    dataset: z.string(),
    hardware_tier: z.string(),
    config: z.object({ epochs: z.number().int(), learning_rate: z.number() }),
    name: z.string().openapi({ description: "The new policy's name." }),
    epochs: StepCounter.nullable().openapi({ description: 'Epochs done of total.' }),
  },
  TrainingRunResult,
  'the fine-tuned policy (`policy`: `id`, `name`, `robot`), `base_policy`, `dataset`, `epochs`, `metrics` (`final_loss`, `eval_success_rate` with its 95% Wilson `interval` over `n` evaluation episodes) and the `checkpoint` file.',
);

/** The training run a 409 `policy_in_training` names in its example. */
const TRAINING_RUN = `train_${EXAMPLE_ULID}`;

export const ROUTES = runRoutes({
  ...ADDRESS,
  createBody: CreateTrainingRunBody,
  resource: TrainingRun,
  yields:
    'a fine-tuned policy (`pol_`) that then appears in `GET /v1/catalog/policies` and can be evaluated or fine-tuned again',
  createErrors: {
    codes: { 409: ['policy_in_training', 'idempotency_key_reused'] },
    examples: {
      409: {
        code: 'policy_in_training',
        message: MESSAGES.policyInTraining('pol_01KA0000000000000000PANDA1', TRAINING_RUN),
        param: 'policy',
        details: { training_run: TRAINING_RUN },
      },
    },
  },
});
