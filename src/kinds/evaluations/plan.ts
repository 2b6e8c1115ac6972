/** What an evaluation attempt does: outcome, episodes, durations, tokens (DESIGN.md section 4). */
import { z } from 'zod';
import { issueError } from '../../core/zod-issue.js';
import { type OutcomeEntry, OutcomePlan } from '../../engine/contract/outcomes.js';
import { failureCodesOf, type KindPlan } from '../../engine/kind-plan.js';
import { assertOutcomePlan } from '../../engine/run-options.js';
import { failurePlanOf } from '../../engine/timeline/failure.js';
import type { FailurePlan } from '../../engine/timeline/schedule.js';
import { PHASES } from './contract.js';

/**
 * Its timeline and failure codes, stated once (DESIGN.md section 4): a default 10-episode run
 * takes 5 virtual seconds, 0.5 s queue and 2.5 s of episodes.
 */
export const PLAN = {
  timeline: {
    phases: PHASES,
    stepPhase: 'running',
    stepNoun: 'episode',
    defaults: {
      queue: 0.5,
      materializing: 0.5,
      planning: 0.5,
      fetching: 0.5,
      episode: 0.25,
      verifying: 0.3,
      packaging: 0.2,
    },
  },
  failures: {
    messages: {
      spec_invalid: 'The SDK spec is invalid.',
      policy_failed: 'The policy failed during an episode.',
      verification_failed: 'The SDK verification command failed on the run.',
    },
    invalidInput: { code: 'spec_invalid', param: 'spec.name' },
    failedStep: {
      code: 'policy_failed',
      location: (step: number) => `episodes/${String(step).padStart(4, '0')}.json`,
    },
  },
} satisfies KindPlan;

const Seconds = z.number().min(0).max(86_400);

/** The parts of an evaluation's free-form `options` the emulator reads. */
export const EvaluationOptions = z
  .object({
    episodes: z.number().int().min(1).max(10_000).optional(),
    emulator: z
      .object({
        outcomes: OutcomePlan.optional(),
        durations_s: z
          .object(Object.fromEntries(Object.keys(PLAN.timeline.defaults).map((k) => [k, Seconds])))
          .partial()
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .catchall(z.unknown());
type EvaluationOptions = z.infer<typeof EvaluationOptions>;

/** The parts of free-form `options` the emulator reads, checked (`param` under `options.`). */
export function parseEvaluationOptions(options: Record<string, unknown>): EvaluationOptions {
  const parsed = EvaluationOptions.safeParse(options);
  if (!parsed.success) throw issueError(parsed.error.issues[0]!, 'options.');
  assertOutcomePlan(
    { phases: PHASES, failureCodes: failureCodesOf(PLAN.failures) },
    parsed.data.emulator?.outcomes,
    'options.emulator.outcomes',
  );
  return parsed.data;
}

export const DEFAULT_EPISODES = 10;
export const DEFAULT_SUCCESS_RATE = 0.8;

/** DESIGN.md section 4: where each failure code strikes; `verification_failed` in `verifying`. */
export function failurePlan(outcome: OutcomeEntry): FailurePlan | undefined {
  if ('fail' in outcome && outcome.fail === 'verification_failed')
    return { phase: 'verifying', afterSteps: outcome.after_episodes };
  return failurePlanOf(PLAN, outcome);
}
