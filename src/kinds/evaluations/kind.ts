/** Evaluations as a run kind (API document sections 2.2 to 2.5; DESIGN.md section 4). */

import type { z } from '@hono/zod-openapi';
import { defineKind } from '../../engine/define-kind.js';
import type { World } from '../../engine/run-kind.js';
import { durationsOf, successRateOf, timelineOf } from '../../engine/run-options.js';
import { sharedRequestFields, unknownInCatalog } from '../../engine/run-request.js';
import { failureOf } from '../../engine/timeline/failure.js';
import { ADDRESS, type EvaluationResult } from './contract.js';
import { archiveEntries, episodeAt, evaluatorIds, manifestFor, resultOf } from './outputs.js';
import {
  DEFAULT_EPISODES,
  DEFAULT_SUCCESS_RATE,
  EvaluationOptions,
  failurePlan,
  PLAN,
  parseEvaluationOptions,
} from './plan.js';
import type { EvaluationRequest } from './request.js';

export interface EvaluationContext {
  request: EvaluationRequest;
  manifestHash: string;
  evaluators: string[];
  rate: number;
}

/** The first `steps` episodes of the attempt. */
const episodesOf = (ctx: EvaluationContext, steps: number) =>
  Array.from({ length: steps }, (_, i) =>
    episodeAt(ctx.manifestHash, i + 1, ctx.rate, ctx.evaluators),
  );

/** `options.policy` and `options.hardware_tier`, when given, must name what exists. */
function checkOptionRefs(options: Record<string, unknown>, world: World): void {
  const { policy, hardware_tier: tier } = options;
  if (policy !== undefined && (typeof policy !== 'string' || !world.policy(policy)))
    throw unknownInCatalog('options.policy', 'policy', String(policy));
  if (tier !== undefined && !world.catalog.hardware_tiers.some((t) => t.id === tier))
    throw unknownInCatalog('options.hardware_tier', 'hardware tier', String(tier));
}

type Result = ReturnType<typeof resultOf>;

export const evaluationKind = defineKind<EvaluationRequest, EvaluationContext, Result>({
  ...ADDRESS,
  ...PLAN,
  // Outcome rules came before the other kinds: one that names no kind is an evaluations' rule.
  outcomeRulesDefault: true,
  prepare(body, world) {
    const shared = sharedRequestFields(body);
    parseEvaluationOptions(shared.options);
    checkOptionRefs(shared.options, world);
    return { spec: body.spec as EvaluationRequest['spec'], ...shared };
  },
  hardwareTier: (request) =>
    typeof request.options.hardware_tier === 'string' ? request.options.hardware_tier : null,
  fields: (record, state) => ({ episodes: state.episodes, spec: record.request.spec }),
  plan(request) {
    const options = EvaluationOptions.parse(request.options);
    const episodes = options.episodes ?? DEFAULT_EPISODES;
    // A fixed part and a part per episode.
    return {
      ...timelineOf(PLAN.timeline, durationsOf(request.options), episodes),
      estimate: 10 + 5 * episodes,
    };
  },
  failurePlan,
  context: (request, outcome) => ({
    request,
    manifestHash: manifestFor(request.spec).hash,
    evaluators: evaluatorIds(request.spec),
    rate: successRateOf(outcome, DEFAULT_SUCCESS_RATE),
  }),
  queuedLine: (request, attempt, total) =>
    `attempt ${attempt} queued: ${total} episodes, spec ${request.spec.name}`,
  stepLine(ctx, index, total) {
    const ep = episodeAt(ctx.manifestHash, index, ctx.rate, ctx.evaluators);
    return `episode ${ep.index}/${total} ${ep.success ? 'succeeded' : 'failed'} return=${ep.return}`;
  },
  failure(ctx, outcome, schedule) {
    const { error } = failureOf(PLAN.failures, outcome, schedule, ctx);
    // A failed verification still reports the scorecard of the episodes that ran.
    if (outcome.fail !== 'verification_failed') return { error, result: null };
    const episodes = episodesOf(ctx, schedule.stepsAtEnd);
    return { error, result: resultOf(ctx.manifestHash, episodes, ctx.evaluators, false) };
  },
  success(ctx, steps) {
    const episodes = episodesOf(ctx, steps);
    const result = resultOf(ctx.manifestHash, episodes, ctx.evaluators, true);
    const succeeded = episodes.filter((e) => e.success).length;
    const line = `run succeeded: success_rate=${result.metrics[0]!.value} (${succeeded}/${episodes.length})`;
    return { result: result satisfies z.infer<typeof EvaluationResult>, line };
  },
  archive: (ctx, result, steps, logs) =>
    archiveEntries(manifestFor(ctx.request.spec).manifest, result, episodesOf(ctx, steps), logs),
});
