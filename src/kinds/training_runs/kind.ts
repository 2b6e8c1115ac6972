/** Training runs as a run kind: one step per epoch, yielding a policy `pol_` the catalog lists. */

import type { z } from '@hono/zod-openapi';
import { sha256Hex } from '../../core/canonical-json.js';
import { defineKind } from '../../engine/define-kind.js';
import { durationsOf, successRateOf, timelineOf } from '../../engine/run-options.js';
import { ADDRESS, type TrainingRunResult } from './contract.js';
import {
  archiveEntries,
  CHECKPOINT_PATH,
  checkpointBytes,
  evalMetrics,
  lossCurve,
  requestHash,
  type TrainingRunRequest,
} from './output.js';
import { assertPolicyFree, prepareTrainingRun, TRAINING_PLAN } from './prepare.js';

/** The fine-tuned policy's evaluation success rate unless the outcome's `succeed` names one. */
const DEFAULT_EVAL_RATE = 0.7;

interface TrainingContext {
  request: TrainingRunRequest;
  runId: string;
  hash: string;
  rate: number;
  /** The loss before training and after each epoch. */
  losses: number[];
}

type Result = z.infer<typeof TrainingRunResult>;

export const trainingRunKind = defineKind<TrainingRunRequest, TrainingContext, Result>({
  ...ADDRESS,
  ...TRAINING_PLAN,
  prepare: prepareTrainingRun,
  // A resume starts a new attempt: the policy must be free of other training runs then too.
  assertStartable: (request, world, runId) => assertPolicyFree(request.policy, world, runId),
  hardwareTier: (request) => request.hardware_tier,
  fields: (record, state) => ({
    policy: record.request.policy,
    dataset: record.request.dataset,
    hardware_tier: record.request.hardware_tier,
    config: record.request.config,
    name: record.request.name,
    epochs: state.episodes,
  }),
  plan(request) {
    const { epochs } = request.config;
    const timeline = timelineOf(TRAINING_PLAN.timeline, durationsOf(request.options), epochs);
    // A fixed part and a part per epoch, like an evaluation's per episode.
    return { ...timeline, estimate: 20 + 10 * epochs };
  },
  context: (request, outcome, runId) => {
    const hash = requestHash(request);
    const rate = successRateOf(outcome, DEFAULT_EVAL_RATE);
    return { request, runId, hash, rate, losses: lossCurve(hash, request.config.epochs) };
  },
  queuedLine: (request, attempt, total) =>
    `attempt ${attempt} queued: ${total} epochs, policy ${request.policy} on dataset ${request.dataset}`,
  stepLine: (ctx, index, total) => `epoch ${index}/${total} loss=${ctx.losses[index]}`,
  success(ctx, steps) {
    const { request } = ctx;
    const checkpoint = checkpointBytes(ctx.hash, request);
    const metrics = { final_loss: ctx.losses[steps]!, ...evalMetrics(ctx.hash, ctx.rate) };
    const result = {
      // The new policy's id is the run's ULID: one policy per run, found from either id.
      policy: {
        id: `pol_${ctx.runId.slice(ctx.runId.indexOf('_') + 1)}`,
        name: request.name,
        robot: request.robot,
      },
      base_policy: request.policy,
      dataset: request.dataset,
      epochs: steps,
      metrics,
      checkpoint: {
        path: CHECKPOINT_PATH,
        bytes: checkpoint.length,
        sha256: sha256Hex(checkpoint),
      },
    } satisfies z.infer<typeof TrainingRunResult>;
    const line = `run succeeded: policy ${result.policy.id} final_loss=${metrics.final_loss} eval_success_rate=${metrics.eval_success_rate}`;
    return { result, line };
  },
  archive: (ctx, result, _steps, logs) =>
    archiveEntries(ctx.request, result, checkpointBytes(ctx.hash, ctx.request), ctx.losses, logs),
});
