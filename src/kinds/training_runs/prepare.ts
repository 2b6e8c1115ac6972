/**
 * A training run's create body checked against the world (DESIGN.md section 7): the policy and
 * the dataset exist and share a robot, the tier exists; one run per policy (API document 1).
 */

import { apiError, invalidParam, MESSAGES } from '../../core/errors.js';
import type { KindPlan } from '../../engine/kind-plan.js';
import type { World } from '../../engine/run-kind.js';
import { parseRunOptions } from '../../engine/run-options.js';
import {
  catalogDataset,
  hardwareTierOf,
  sharedRequestFields,
  unknownInCatalog,
} from '../../engine/run-request.js';
import { DEFAULT_TRAINING_TIER, TRAINING_CONFIG_DEFAULTS, TRAINING_PHASES } from './contract.js';
import type { TrainingRunRequest } from './output.js';

const pad4 = (n: number) => String(n).padStart(4, '0');

/**
 * Its timeline and failure codes, stated once (`dataset_invalid` alone is not resumable): a
 * default 5-epoch run takes 5.5 virtual seconds, 0.5 s queue and 2.5 s of epochs.
 */
export const TRAINING_PLAN = {
  timeline: {
    phases: TRAINING_PHASES,
    stepPhase: 'training',
    stepNoun: 'epoch',
    defaults: { queue: 0.5, preparing: 1, epoch: 0.5, evaluating: 1, exporting: 0.5 },
  },
  failures: {
    messages: {
      dataset_invalid: 'The dataset could not be prepared for training.',
      diverged: 'The training loss diverged.',
    },
    invalidInput: { code: 'dataset_invalid', param: 'dataset' },
    failedStep: { code: 'diverged', location: (step: number) => `epochs/${pad4(step)}` },
  },
} satisfies KindPlan;

/**
 * One run per policy: 409 `policy_in_training` while another of the account's training runs for
 * `policyId` is active; `self`, the run being resumed, does not conflict with itself.
 */
export function assertPolicyFree(policyId: string, world: World, self: string | null): void {
  const active = world
    .activeRuns('training_run')
    .find((r) => r.request.policy === policyId && r.id !== self);
  if (active)
    throw apiError('policy_in_training', {
      param: 'policy',
      message: MESSAGES.policyInTraining(policyId, active.id),
      details: { training_run: active.id },
    });
}

/**
 * The stored request of a validated create body: 400 naming the field, or 409 `policy_in_training`.
 * @example prepareTrainingRun({ policy: 'pol_...', dataset: 'ds_...' }, world)
 */
export function prepareTrainingRun(
  body: Record<string, unknown>,
  world: World,
): TrainingRunRequest {
  parseRunOptions(TRAINING_PLAN, (body.options ?? {}) as Record<string, unknown>);
  const policyId = body.policy as string;
  const datasetId = body.dataset as string;
  const policy = world.policy(policyId);
  if (!policy) throw unknownInCatalog('policy', 'policy', policyId);
  const dataset = catalogDataset(world.catalog, datasetId);
  if (dataset.robot !== policy.robot)
    throw invalidParam(
      'dataset',
      MESSAGES.datasetRobot(dataset.id, dataset.robot, policy.id, policy.robot),
    );
  const tier = hardwareTierOf(body, world.catalog, DEFAULT_TRAINING_TIER);
  // A state conflict comes after validation (DESIGN.md section 3, "Order of checks").
  assertPolicyFree(policyId, world, null);
  const config = { ...TRAINING_CONFIG_DEFAULTS, ...(body.config as object | undefined) };
  return {
    policy: policyId,
    dataset: datasetId,
    hardware_tier: tier,
    config,
    name: (body.name as string | undefined) ?? `${policy.name} fine-tuned on ${dataset.name}`,
    robot: policy.robot,
    ...sharedRequestFields(body),
  };
}
