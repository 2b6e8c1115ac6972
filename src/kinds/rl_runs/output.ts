/** What an RL run produces (inferred): every number a sha256 draw on the request's own fields. */

import { canonicalJson, sha256Hex } from '../../core/canonical-json.js';
import { wilsonInterval } from '../../core/wilson-interval.js';
import type { OutcomeEntry } from '../../engine/contract/outcomes.js';
import { successRateOf } from '../../engine/run-options.js';
import { draw } from '../draw.js';
import type { RlRunRequest } from './prepare.js';

/** Evaluation episodes behind a verdict: enough for a Wilson interval about ±0.13 wide. */
const VERDICT_EPISODES = 50;

/** What an attempt's outputs derive from, computed once per application. */
export interface RlContext {
  request: RlRunRequest;
  runId: string;
  /** sha256 of the canonical JSON of the request's own fields (not options, label, metadata). */
  requestHash: string;
  /** The success rate the verdict reports, before rounding to whole episodes. */
  rate: number;
}

/** The request's own fields: an outcome plan or a label does not change what is trained. */
export function requestHash(request: RlRunRequest): string {
  const { options: _o, label: _l, webhook_metadata: _w, ...own } = request;
  return sha256Hex(canonicalJson(own));
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The outcome's `succeed.success_rate`, else a draw in [0.5, 0.95) around the 0.7 threshold. */
export function contextOf(request: RlRunRequest, outcome: OutcomeEntry, runId: string): RlContext {
  const hash = requestHash(request);
  const rate = successRateOf(outcome, 0.5 + 0.45 * draw(hash, 'rate'));
  return { request, runId, requestHash: hash, rate };
}

/** The mean episode reward after iteration `index` (1-based): rising to a plateau, with noise. */
export function rewardAt(ctx: RlContext, index: number): number {
  const total = ctx.request.config.iterations;
  const plateau = 0.2 + 0.8 * ctx.rate;
  const rise = 1 - Math.exp((-4 * index) / total);
  return round4(plateau * rise + 0.05 * (draw(ctx.requestHash, `reward:${index}`) - 0.5));
}

/** Every iteration's reward, for `training_curve.json`. */
export function trainingCurve(ctx: RlContext, steps: number) {
  return Array.from({ length: steps }, (_, i) => ({
    iteration: i + 1,
    reward: rewardAt(ctx, i + 1),
  }));
}

/** The run id's ULID: the produced policy shares it (`rl_X` yields `pol_X`). */
const ulidOf = (runId: string) => runId.slice(runId.indexOf('_') + 1);

/** `scene_` and 16 hex of the request's hash: the same request builds the same scene. */
export const sceneId = (ctx: RlContext) => `scene_${ctx.requestHash.slice(0, 16)}`;

/**
 * A succeeded attempt's result: whole episodes of `VERDICT_EPISODES`, a 95% Wilson interval, and
 * a verdict, which ends a succeeded run even when it misses the threshold.
 */
export function resultOf(ctx: RlContext, steps: number) {
  const { request } = ctx;
  const successes = Math.round(ctx.rate * VERDICT_EPISODES);
  const rate = Math.round((successes / VERDICT_EPISODES) * 1e6) / 1e6;
  const threshold = request.config.success_threshold;
  return {
    // Exactly `{id, name, robot}`: the catalog lists the account's produced policies from it.
    policy: { id: `pol_${ulidOf(ctx.runId)}`, name: request.name, robot: request.robot },
    scene: { id: sceneId(ctx), environment: request.environment, path: 'scene/scene.usda' },
    verdict: {
      passed: rate >= threshold,
      success_rate: rate,
      interval: wilsonInterval(successes, VERDICT_EPISODES),
      n: VERDICT_EPISODES,
      threshold,
    },
    iterations: steps,
  };
}

export type RlResult = ReturnType<typeof resultOf>;
