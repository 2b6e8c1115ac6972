/** RL runs as a run kind: build a scene, train `iterations` steps, evaluate, package. */

import type { z } from '@hono/zod-openapi';
import type { RunKind } from '../../engine/run-kind.js';
import { durationsOf, timelineOf } from '../../engine/run-options.js';
import { type FailureCodes, failureOf, failurePlanOf } from '../../engine/timeline/failure.js';
import { archiveEntries } from './archive.js';
import { ADDRESS, RL_FAILURE_CODES, RL_PHASES, type RlRunResult } from './contract.js';
import { contextOf, type RlContext, type RlResult, resultOf, rewardAt } from './output.js';
import { prepareRlRun, RL_TIMELINE, type RlRunRequest } from './prepare.js';

const FAILURES: FailureCodes = {
  messages: {
    task_invalid: 'The task cannot be set up for the robot in this environment.',
    training_diverged: 'Training diverged: the policy loss became non-finite.',
  },
  invalidInput: { code: 'task_invalid', param: 'task' },
  failedStep: { code: 'training_diverged', location: (step) => `iterations/${pad4(step)}` },
};

const pad4 = (n: number) => String(n).padStart(4, '0');

export const rlRunKind: RunKind<RlRunRequest, RlContext> = {
  ...ADDRESS,
  stepNoun: RL_TIMELINE.stepNoun,
  phases: RL_PHASES,
  failureCodes: RL_FAILURE_CODES,
  prepare: prepareRlRun,
  hardwareTier: (request) => request.hardware_tier,
  fields: ({ request }, state) => ({
    robot: request.robot,
    task: request.task,
    environment: request.environment,
    hardware_tier: request.hardware_tier,
    config: request.config,
    name: request.name,
    iterations: state.episodes,
  }),
  plan(request) {
    const iterations = request.config.iterations;
    const timeline = timelineOf(RL_TIMELINE, durationsOf(request.options), iterations);
    // A fixed part for the scene and the evaluation, and a part per iteration.
    return { ...timeline, estimate: 40 + 2 * iterations };
  },
  failurePlan: failurePlanOf(RL_TIMELINE, 'task_invalid', 'training_diverged'),
  context: contextOf,
  queuedLine: (request, attempt, total) =>
    `attempt ${attempt} queued: ${total} iterations, ${request.robot} (${request.embodiment}) on ${request.task} in ${request.environment}`,
  stepLine: (ctx, index, total) => `iteration ${index}/${total} reward=${rewardAt(ctx, index)}`,
  failure: (_ctx, outcome, schedule) => failureOf(FAILURES, outcome, schedule),
  success(ctx, steps) {
    const result = resultOf(ctx, steps);
    const { verdict, policy } = result;
    const line = `run succeeded: policy ${policy.id}, success_rate=${verdict.success_rate} (n=${verdict.n}), verdict ${verdict.passed ? 'passed' : 'not passed'} at threshold ${verdict.threshold}`;
    return { result: result satisfies z.infer<typeof RlRunResult>, line };
  },
  archive: (ctx, result, steps, logs) =>
    archiveEntries(ctx, result as unknown as RlResult, steps, logs),
};
