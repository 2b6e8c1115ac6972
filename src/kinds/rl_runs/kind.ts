/** RL runs as a run kind: build a scene, train `iterations` steps, evaluate, package. */

import type { z } from '@hono/zod-openapi';
import { defineKind } from '../../engine/define-kind.js';
import { durationsOf, timelineOf } from '../../engine/run-options.js';
import { archiveEntries } from './archive.js';
import { ADDRESS, type RlRunResult } from './contract.js';
import { contextOf, type RlContext, type RlResult, resultOf, rewardAt } from './output.js';
import { prepareRlRun, RL_PLAN, type RlRunRequest } from './prepare.js';

export const rlRunKind = defineKind<RlRunRequest, RlContext, RlResult>({
  ...ADDRESS,
  ...RL_PLAN,
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
    const timeline = timelineOf(RL_PLAN.timeline, durationsOf(request.options), iterations);
    // A fixed part for the scene and the evaluation, and a part per iteration.
    return { ...timeline, estimate: 40 + 2 * iterations };
  },
  context: contextOf,
  queuedLine: (request, attempt, total) =>
    `attempt ${attempt} queued: ${total} iterations, ${request.robot} (${request.embodiment}) on ${request.task} in ${request.environment}`,
  stepLine: (ctx, index, total) => `iteration ${index}/${total} reward=${rewardAt(ctx, index)}`,
  success(ctx, steps) {
    const result = resultOf(ctx, steps);
    const { verdict, policy } = result;
    const line = `run succeeded: policy ${policy.id}, success_rate=${verdict.success_rate} (n=${verdict.n}), verdict ${verdict.passed ? 'passed' : 'not passed'} at threshold ${verdict.threshold}`;
    return { result: result satisfies z.infer<typeof RlRunResult>, line };
  },
  archive: (ctx, result, steps, logs) => archiveEntries(ctx, result, steps, logs),
});
