/** What an evaluation attempt does: outcome, episodes, durations, tokens (DESIGN.md section 4). */
import { z } from 'zod';
import { type OutcomeEntry, OutcomePlan } from '../../contract/outcomes.js';
import { assertOutcomePlan } from '../../domain/run-options.js';
import type { FailurePlan, PhasePlan } from '../../domain/run-schedule.js';
import { issueError } from '../../domain/zod-issue.js';
import { EVALUATION_ERROR_CODES, PHASES, type Phase } from './contract.js';

const Seconds = z.number().min(0).max(86_400);

/** `options.emulator`: the emulator's own knobs on a create request. */
export const EmulatorOptions = z
  .object({
    outcomes: OutcomePlan.optional(),
    durations_s: z
      .object({
        queue: Seconds,
        materializing: Seconds,
        planning: Seconds,
        fetching: Seconds,
        episode: Seconds,
        verifying: Seconds,
        packaging: Seconds,
      })
      .partial()
      .strict()
      .optional(),
  })
  .strict();

/** The parts of an evaluation's free-form `options` the emulator reads. */
export const EvaluationOptions = z
  .object({
    episodes: z.number().int().min(1).max(10_000).optional(),
    emulator: EmulatorOptions.optional(),
  })
  .catchall(z.unknown());
export type EvaluationOptions = z.infer<typeof EvaluationOptions>;

/** The parts of free-form `options` the emulator reads, checked (`param` under `options.`). */
export function parseEvaluationOptions(options: Record<string, unknown>): EvaluationOptions {
  const parsed = EvaluationOptions.safeParse(options);
  if (parsed.success) {
    assertOutcomePlan(
      { phases: PHASES, failureCodes: EVALUATION_ERROR_CODES },
      parsed.data.emulator?.outcomes,
      'options.emulator.outcomes',
    );
    return parsed.data;
  }
  throw issueError(parsed.error.issues[0]!, 'options.');
}

/** A default 10-episode run takes 5 virtual seconds: 0.5 s queue, 2.5 s of episodes. */
export const DEFAULT_DURATIONS_S = {
  queue: 0.5,
  materializing: 0.5,
  planning: 0.5,
  fetching: 0.5,
  episode: 0.25,
  verifying: 0.3,
  packaging: 0.2,
} as const;
export const DEFAULT_EPISODES = 10;
export const DEFAULT_SUCCESS_RATE = 0.8;

export function episodeCount(options: EvaluationOptions): number {
  return options.episodes ?? DEFAULT_EPISODES;
}

/** Seconds to whole milliseconds. */
function ms(s: number): number {
  return Math.round(s * 1000);
}

export function phasePlans(options: EvaluationOptions): { queueMs: number; phases: PhasePlan[] } {
  const d = { ...DEFAULT_DURATIONS_S, ...options.emulator?.durations_s };
  const episodes = episodeCount(options);
  return {
    queueMs: ms(d.queue),
    phases: PHASES.map((name: Phase) =>
      name === 'running'
        ? { name, ms: ms(d.episode) * episodes, steps: episodes }
        : { name, ms: ms(d[name]) },
    ),
  };
}

/** DESIGN.md section 4: where each failure code strikes. */
export function failurePlan(outcome: OutcomeEntry): FailurePlan | undefined {
  if (!('fail' in outcome)) return undefined;
  const phase: string =
    outcome.fail === 'spec_invalid'
      ? 'materializing'
      : outcome.fail === 'verification_failed'
        ? 'verifying'
        : outcome.fail === 'policy_failed'
          ? 'running'
          : (outcome.at ?? 'running');
  return { phase, afterSteps: outcome.after_episodes };
}

/** Tokens charged when an attempt starts: a fixed part and a part per episode. */
export function tokenEstimate(options: EvaluationOptions): number {
  return 10 + 5 * episodeCount(options);
}
