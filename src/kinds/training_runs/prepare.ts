/**
 * A training run's create body checked against the world (DESIGN.md section 7, "Training runs"):
 * the policy and the dataset exist and share a robot, the tier exists, and no other run is
 * fine-tuning the same policy ("one run per policy", API document section 1).
 */

import type { World } from '../../domain/run-kind.js';
import { type KindTimeline, parseRunOptions } from '../../domain/run-options.js';
import { catalogDataset, hardwareTierOf, sharedRequestFields } from '../../domain/run-request.js';
import { apiError, MESSAGES } from '../../errors.js';
import { DEFAULT_TRAINING_TIER, TRAINING_CONFIG_DEFAULTS } from './contract.js';
import type { TrainingRunRequest } from './output.js';

const unknown = (param: string, what: string, id: string) =>
  apiError('parameter_invalid', { param, message: MESSAGES.catalogUnknown(what, id) });

/**
 * The stored request of a validated create body: 400 `parameter_invalid` naming the field for
 * an unknown policy, dataset or tier, or a dataset of another robot; 409 `policy_in_training`
 * while a run for the same policy is queued, processing or canceling.
 * @example prepareTrainingRun(TRAINING_TIMELINE, { policy: 'pol_...', dataset: 'ds_...' }, world)
 */
/**
 * One run per policy (API document section 1): 409 `policy_in_training` while another training
 * run of the account for `policyId` is queued, processing or canceling. `self` is the run being
 * resumed, which does not conflict with itself.
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

export function prepareTrainingRun(
  timeline: KindTimeline,
  body: Record<string, unknown>,
  world: World,
): TrainingRunRequest {
  const options = (body.options ?? {}) as Record<string, unknown>;
  parseRunOptions(timeline, options);
  const policyId = body.policy as string;
  const datasetId = body.dataset as string;
  const policy = world.policy(policyId);
  if (!policy) throw unknown('policy', 'policy', policyId);
  const dataset = catalogDataset(world.catalog, datasetId);
  if (dataset.robot !== policy.robot)
    throw apiError('parameter_invalid', {
      param: 'dataset',
      message: MESSAGES.datasetRobot(dataset.id, dataset.robot, policy.id, policy.robot),
    });
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
