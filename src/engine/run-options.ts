/** `options.emulator` of any kind (DESIGN.md section 4): its plan and durations, checked (400). */
import { z } from 'zod';
import { invalidParam } from '../core/errors.js';
import { issueError } from '../core/zod-issue.js';
import { type OutcomeEntry, OutcomePlan } from './contract/outcomes.js';
import { failureCodesOf, type KindPlan, type KindTimeline } from './kind-plan.js';
import type { PhasePlan } from './timeline/schedule.js';

const Seconds = z.number().min(0).max(86_400);

export interface RunOptions {
  outcomes?: OutcomeEntry[];
  durations_s?: Record<string, number>;
}

/**
 * The outcome plan names only the kind's failure codes and phases.
 * @example assertOutcomePlan(kind, plan, 'options.emulator.outcomes')
 */
export function assertOutcomePlan(
  kind: { phases: readonly string[]; failureCodes: readonly string[] },
  plan: readonly OutcomeEntry[] | undefined,
  param: string,
): void {
  const notOneOf = (field: string, allowed: readonly string[]) =>
    invalidParam(field, `Invalid value for '${field}': expected one of ${allowed.join(', ')}.`);
  for (const [i, entry] of (plan ?? []).entries()) {
    if (!('fail' in entry)) continue;
    if (!kind.failureCodes.includes(entry.fail))
      throw notOneOf(`${param}.${i}.fail`, kind.failureCodes);
    if (entry.at !== undefined && !kind.phases.includes(entry.at))
      throw notOneOf(`${param}.${i}.at`, kind.phases);
  }
}

/**
 * `options.emulator` checked for a kind: its outcome plan and durations.
 * @example const { durations_s } = parseRunOptions(PLAN, request.options)
 */
export function parseRunOptions(
  plan: KindPlan<unknown>,
  options: Record<string, unknown>,
): RunOptions {
  const { timeline } = plan;
  const keys = [
    'queue',
    ...timeline.phases.filter((p) => p !== timeline.stepPhase),
    timeline.stepNoun,
  ];
  const schema = z
    .object({
      outcomes: OutcomePlan.optional(),
      durations_s: z
        .object(Object.fromEntries(keys.map((k) => [k, Seconds.optional()])))
        .strict()
        .optional(),
    })
    .strict();
  const parsed = schema.safeParse(options.emulator ?? {});
  if (!parsed.success) throw issueError(parsed.error.issues[0]!, 'options.emulator.');
  const emulator = parsed.data as RunOptions;
  const kind = { phases: timeline.phases, failureCodes: failureCodesOf(plan.failures) };
  assertOutcomePlan(kind, emulator.outcomes, 'options.emulator.outcomes');
  return emulator;
}

/**
 * The queue and phases of one attempt, each its default or `durations_s` seconds.
 * @example timelineOf(kind, options.durations_s, 12) // { queueMs, phases }
 */
export function timelineOf(
  kind: KindTimeline,
  durations: Record<string, number> | undefined,
  steps: number,
): { queueMs: number; phases: PhasePlan[] } {
  const d = { ...kind.defaults, ...durations };
  const ms = (key: string) => Math.round((d[key] ?? 0) * 1000);
  return {
    queueMs: ms('queue'),
    phases: kind.phases.map((name) =>
      name === kind.stepPhase
        ? { name, ms: ms(kind.stepNoun) * steps, steps }
        : { name, ms: ms(name) },
    ),
  };
}

/** How long `canceling` lasts before `canceled`. */
export const CANCEL_MS = 1000;

/** The attempt's outcome: the plan entry for this attempt, success once the plan runs out. */
export function outcomeFor(plan: OutcomeEntry[] | undefined, attempt: number): OutcomeEntry {
  return plan?.[attempt - 1] ?? { succeed: {} };
}

/** The `durations_s` of a stored request's options (`prepare` checked them). */
export function durationsOf(options: Record<string, unknown>): Record<string, number> | undefined {
  return (options.emulator as RunOptions | undefined)?.durations_s;
}

/** The success rate an outcome names for its attempt, else the kind's default. */
export function successRateOf(outcome: OutcomeEntry, fallback: number): number {
  return 'succeed' in outcome ? (outcome.succeed.success_rate ?? fallback) : fallback;
}
