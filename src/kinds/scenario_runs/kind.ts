/** Scenario runs as a run kind: a policy's episodes, scenario by scenario (DESIGN.md section 7). */

import { defineKind } from '../../engine/define-kind.js';
import { durationsOf, successRateOf, timelineOf } from '../../engine/run-options.js';
import { ADDRESS, type ScenarioRunResult } from './contract.js';
import {
  episodeName,
  type ScenarioEpisode,
  scenarioEpisode,
  scenarioRunArchive,
  scenarioRunResult,
} from './outputs.js';
import {
  locate,
  PLAN,
  prepareScenarioRun,
  type ScenarioRunContext,
  type ScenarioRunRequest,
} from './prepare.js';

/** The per-episode success probability when the outcome names none (our inference). */
const DEFAULT_SUCCESS_RATE = 0.75;

function episodesOf(ctx: ScenarioRunContext) {
  const { policy, scenarios, scenario_tasks, episodes_per_scenario } = ctx.request;
  return scenarios.map((scenario, i) => {
    const episodes: ScenarioEpisode[] = [];
    for (let e = 1; e <= episodes_per_scenario; e++)
      episodes.push(scenarioEpisode(policy, scenario, e, ctx.rate));
    return { scenario, task: scenario_tasks[i]!, episodes };
  });
}

const totalEpisodes = (r: ScenarioRunRequest) => r.scenarios.length * r.episodes_per_scenario;

export const scenarioRunKind = defineKind<
  ScenarioRunRequest,
  ScenarioRunContext,
  ScenarioRunResult
>({
  ...ADDRESS,
  ...PLAN,
  prepare: prepareScenarioRun,
  hardwareTier: (request) => request.hardware_tier,
  fields: (record, state) => ({
    policy: record.request.policy,
    scenarios: record.request.scenarios,
    episodes_per_scenario: record.request.episodes_per_scenario,
    hardware_tier: record.request.hardware_tier,
    episodes: state.episodes,
  }),
  plan(request) {
    const timeline = timelineOf(
      PLAN.timeline,
      durationsOf(request.options),
      totalEpisodes(request),
    );
    // A fixed part and a part per episode, like an evaluation's estimate.
    return { ...timeline, estimate: 10 + 2 * totalEpisodes(request) };
  },
  context: (request, outcome) => ({ request, rate: successRateOf(outcome, DEFAULT_SUCCESS_RATE) }),
  queuedLine: (request, attempt, total) =>
    `attempt ${attempt} queued: ${total} episodes across ${request.scenarios.length} scenarios, policy ${request.policy}`,
  stepLine(ctx, index, total) {
    const { scenario, episode } = locate(ctx.request, index);
    const ep = scenarioEpisode(ctx.request.policy, scenario, episode, ctx.rate);
    const how = ep.success ? 'succeeded' : `failed (${ep.failure_reason})`;
    return `episode ${index}/${total} ${scenario} ${episodeName(episode)} ${how} return=${ep.return}`;
  },
  success(ctx) {
    const perScenario = episodesOf(ctx);
    const result = scenarioRunResult(ctx.request.policy, perScenario);
    const k = perScenario.flatMap((s) => s.episodes).filter((e) => e.success).length;
    return {
      result,
      line: `run succeeded: success_rate=${result.success_rate} (${k}/${result.n})`,
    };
  },
  archive: (ctx, result, _steps, logs) => scenarioRunArchive(result, episodesOf(ctx), logs),
});
