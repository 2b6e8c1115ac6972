/**
 * An attempt's failure as every kind but evaluations shapes it (DESIGN.md section 4 "Failure
 * codes"): a code for an input the run cannot use (not resumable, naming its field), one for a
 * failing step (resumable, its location), and `interrupted`; an outcome may name message and param.
 */
import type { OutcomeEntry } from '../contract/outcomes.js';
import type { RunError } from '../contract/run-shapes.js';
import type { FailureCodes, KindPlan } from '../kind-plan.js';
import type { FailureOutputs } from '../run-kind.js';
import type { FailurePlan, Schedule } from './schedule.js';

/** The message of `interrupted`, the code every kind shares. */
export const INTERRUPTED_MESSAGE = 'The run was interrupted before it finished.';

/** The error of a run seeded `failed` without one: resumable `interrupted`, seeding's message. */
export function seededFailure(): RunError {
  return {
    code: 'interrupted',
    message: 'The run was interrupted.',
    resumable: true,
    param: null,
    details: null,
  };
}

/**
 * The error of a failed attempt, as the kind's codes describe it; no `result`.
 * @example failureOf(PLAN.failures, outcome, schedule, ctx) // { error: { code, ... }, result: null }
 */
export function failureOf<Ctx>(
  codes: FailureCodes<Ctx>,
  outcome: Extract<OutcomeEntry, { fail: unknown }>,
  schedule: Schedule,
  ctx: Ctx,
): FailureOutputs {
  const code = outcome.fail;
  const invalid = code === codes.invalidInput.code;
  return {
    error: {
      code,
      message:
        outcome.message ??
        codes.messages[code] ??
        (code === 'interrupted' ? INTERRUPTED_MESSAGE : code),
      resumable: !invalid,
      param: outcome.param ?? (invalid ? codes.invalidInput.param : null),
      // The step running when it failed: the one after the last completed.
      details:
        code === codes.failedStep.code
          ? { location: codes.failedStep.location(schedule.stepsAtEnd + 1, ctx) }
          : { service_code: code },
    },
    result: null,
  };
}

/**
 * Where an outcome's failure strikes (DESIGN.md section 4 "Failure codes"): the invalid input in
 * the first phase, a failing step and, unless `at` names a phase, `interrupted` in the stepped one.
 * @example failurePlanOf(PLAN, { fail: 'diverged' }) // { phase: 'training', afterSteps: undefined }
 */
export function failurePlanOf(
  { timeline, failures }: KindPlan<unknown>,
  outcome: OutcomeEntry,
): FailurePlan | undefined {
  if (!('fail' in outcome)) return undefined;
  const phase =
    outcome.fail === failures.invalidInput.code
      ? timeline.phases[0]!
      : outcome.fail === failures.failedStep.code
        ? timeline.stepPhase
        : (outcome.at ?? timeline.stepPhase);
  return { phase, afterSteps: outcome.after_episodes };
}
