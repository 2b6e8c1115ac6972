/**
 * What a scenario run produces (DESIGN.md section 7): per scenario a success rate with a Wilson
 * interval, failure reasons and edge cases, each episode a sha256 draw of its request.
 */
import type { ArchiveEntry } from '../../core/archive.js';
import { canonicalJsonFile } from '../../core/canonical-json.js';
import { wilsonInterval } from '../../core/wilson-interval.js';
import { draw } from '../draw.js';
import type { ScenarioRunResult } from './contract.js';

/** Why a simulated episode fails: the kinds of failure a scenario run reports (our inference). */
const FAILURE_REASONS = ['grasp_slipped', 'timeout', 'collision', 'object_dropped'] as const;

const EDGE_CASES_PER_SCENARIO = 3;

/**
 * Episode `index` (1-based) of `policy` in `scenario` at this success probability.
 * @example scenarioEpisode('pol_x', 'scn_builtin_push', 1, 0.75).success
 */
export function scenarioEpisode(policy: string, scenario: string, index: number, rate: number) {
  // Each draw depends only on the policy, the scenario, the episode and a label.
  const key = `${policy}:${scenario}:${index}`;
  const success = draw(key, 'success') < rate;
  const r = draw(key, 'return');
  const reason = Math.floor(draw(key, 'reason') * FAILURE_REASONS.length);
  return {
    index,
    success,
    return: Math.round((success ? 0.6 + 0.4 * r : 0.4 * r) * 10000) / 10000,
    steps: 50 + Math.floor(draw(key, 'steps') * 200),
    failure_reason: success ? null : FAILURE_REASONS[reason]!,
  };
}

export type ScenarioEpisode = ReturnType<typeof scenarioEpisode>;

const rate6 = (k: number, n: number) => (n === 0 ? 0 : Math.round((k / n) * 1e6) / 1e6);

/** Episode `index` as its file and edge-case name: `0004`. */
export const episodeName = (index: number) => String(index).padStart(4, '0');

/** A scenario's figures from its episodes: each interval is the Wilson interval of its own k/n. */
function scenarioFigures(scenario: string, task: string, episodes: ScenarioEpisode[]) {
  const k = episodes.filter((e) => e.success).length;
  const failed = episodes.filter((e) => !e.success);
  const counts = new Map<string, number>();
  for (const e of failed) counts.set(e.failure_reason!, (counts.get(e.failure_reason!) ?? 0) + 1);
  // The failures most worth a look: the lowest returns, ties broken by episode order.
  const worst = [...failed]
    .sort((a, b) => a.return - b.return || a.index - b.index)
    .slice(0, EDGE_CASES_PER_SCENARIO);
  return {
    scenario,
    task,
    success_rate: rate6(k, episodes.length),
    interval: wilsonInterval(k, episodes.length),
    n: episodes.length,
    // Most frequent first; equal counts in the fixed order of FAILURE_REASONS.
    failure_reasons: FAILURE_REASONS.filter((r) => counts.has(r))
      .map((reason) => ({ reason, count: counts.get(reason)! }))
      .sort((a, b) => b.count - a.count),
    edge_cases: worst.map((e) => ({
      episode: e.index,
      description: `episode ${episodeName(e.index)}: ${e.failure_reason} after ${e.steps} steps, return ${e.return}`,
    })),
  };
}

/** `result` of a run whose episodes all ran, scenario by scenario. */
export function scenarioRunResult(
  policy: string,
  perScenario: { scenario: string; task: string; episodes: ScenarioEpisode[] }[],
): ScenarioRunResult {
  const all = perScenario.flatMap((s) => s.episodes);
  const k = all.filter((e) => e.success).length;
  return {
    policy,
    success_rate: rate6(k, all.length),
    interval: wilsonInterval(k, all.length),
    n: all.length,
    scenarios: perScenario.map((s) => scenarioFigures(s.scenario, s.task, s.episodes)),
  };
}

/** The files of the run directory `<id>/`, for `buildArchive()`. */
export function scenarioRunArchive(
  result: ScenarioRunResult,
  perScenario: { scenario: string; episodes: ScenarioEpisode[] }[],
  logLines: string[],
): ArchiveEntry[] {
  const failures = perScenario.flatMap((s) =>
    s.episodes
      .filter((e) => !e.success)
      .map((e) => ({
        scenario: s.scenario,
        episode: e.index,
        reason: e.failure_reason,
        return: e.return,
      })),
  );
  const edgeCases = result.scenarios.flatMap((s) =>
    s.edge_cases.map((e) => ({ scenario: s.scenario, ...e })),
  );
  return [
    { path: 'summary.json', content: canonicalJsonFile(result) },
    ...result.scenarios.map((figures, i) => ({
      path: `scenarios/${figures.scenario}.json`,
      content: canonicalJsonFile({ ...figures, episodes: perScenario[i]!.episodes }),
    })),
    { path: 'failures.json', content: canonicalJsonFile(failures) },
    { path: 'edge_cases.json', content: canonicalJsonFile(edgeCases) },
    { path: 'logs/scenario_run.log', content: logLines.map((l) => `${l}\n`).join('') },
  ];
}
