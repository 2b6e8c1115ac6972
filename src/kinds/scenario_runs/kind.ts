/** Scenario runs as a run kind: a policy's episodes, scenario by scenario (DESIGN.md section 7). */

import type { RunKind } from '../../engine/run-kind.js';
import { durationsOf, successRateOf, timelineOf } from '../../engine/run-options.js';
import { failureOf, failurePlanOf } from '../../engine/timeline/failure.js';
import { ADDRESS, type ScenarioRunResult } from './contract.js';
import {
  episodeName,
  type ScenarioEpisode,
  scenarioEpisode,
  scenarioRunArchive,
  scenarioRunResult,
} from './outputs.js';
import { prepareScenarioRun, type ScenarioRunRequest, TIMELINE } from './prepare.js';

/** The per-episode success probability when the outcome names none (our inference). */
const DEFAULT_SUCCESS_RATE = 0.75;

interface ScenarioRunContext {
  request: ScenarioRunRequest;
  rate: number;
}

/** Global step `index` (1-based, scenario by scenario) as its scenario and episode. */
function locate(request: ScenarioRunRequest, index: number) {
  const per = request.episodes_per_scenario;
  const at = Math.floor((index - 1) / per);
  return { scenario: request.scenarios[at]!, episode: ((index - 1) % per) + 1 };
}

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

export const scenarioRunKind: RunKind<ScenarioRunRequest, ScenarioRunContext> = {
  ...ADDRESS,
  stepNoun: TIMELINE.stepNoun,
  phases: TIMELINE.phases,
  failureCodes: TIMELINE.failureCodes,
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
    const timeline = timelineOf(TIMELINE, durationsOf(request.options), totalEpisodes(request));
    // A fixed part and a part per episode, like an evaluation's estimate.
    return { ...timeline, estimate: 10 + 2 * totalEpisodes(request) };
  },
  failurePlan: failurePlanOf(TIMELINE, 'scenario_invalid', 'policy_failed'),
  context: (request, outcome) => ({ request, rate: successRateOf(outcome, DEFAULT_SUCCESS_RATE) }),
  queuedLine: (request, attempt, total) =>
    `attempt ${attempt} queued: ${total} episodes across ${request.scenarios.length} scenarios, policy ${request.policy}`,
  stepLine(ctx, index, total) {
    const { scenario, episode } = locate(ctx.request, index);
    const ep = scenarioEpisode(ctx.request.policy, scenario, episode, ctx.rate);
    const how = ep.success ? 'succeeded' : `failed (${ep.failure_reason})`;
    return `episode ${index}/${total} ${scenario} ${episodeName(episode)} ${how} return=${ep.return}`;
  },
  failure: (ctx, outcome, schedule) =>
    failureOf(
      {
        messages: {
          policy_failed: 'The policy failed during an episode.',
          scenario_invalid: 'A scenario could not be provisioned.',
        },
        invalidInput: { code: 'scenario_invalid', param: 'scenarios' },
        failedStep: {
          code: 'policy_failed',
          location(step) {
            const failing = locate(ctx.request, step);
            return `scenarios/${failing.scenario}/episodes/${episodeName(failing.episode)}`;
          },
        },
      },
      outcome,
      schedule,
    ),
  success(ctx) {
    const perScenario = episodesOf(ctx);
    const result = scenarioRunResult(ctx.request.policy, perScenario);
    const k = perScenario.flatMap((s) => s.episodes).filter((e) => e.success).length;
    return {
      result,
      line: `run succeeded: success_rate=${result.success_rate} (${k}/${result.n})`,
    };
  },
  archive: (ctx, result, _steps, logs) =>
    scenarioRunArchive(result as unknown as ScenarioRunResult, episodesOf(ctx), logs),
};
