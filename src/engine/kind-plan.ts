/**
 * What a kind states once about its attempts (STYLE.md rule 16): its timeline and its failure
 * codes. The engine's view of a kind (`defineKind`), the checks of its options and where each
 * failure strikes all derive from it.
 */

/** What a kind's timeline is made of: a queue, its phases, and the length of one step. */
export interface KindTimeline {
  phases: readonly string[];
  /** The phase made of steps (episodes, epochs). */
  stepPhase: string;
  /** The name of a step in `durations_s` (`episode`, `epoch`). */
  stepNoun: string;
  /** Default seconds: `queue`, each phase but the stepped one, and `<stepNoun>`. */
  defaults: Readonly<Record<string, number>>;
}

/**
 * A kind's failure codes (DESIGN.md section 4 "Failure codes"): its own, in order, each with its
 * default message (`interrupted`, every kind's, comes last); which one is an input the run cannot
 * use (not resumable, naming its field), and which a failing step (resumable, naming where).
 */
export interface FailureCodes<Ctx = never> {
  messages: Readonly<Record<string, string>>;
  invalidInput: { code: string; param: string };
  /** Where the failing step is (1-based, among all steps), from the attempt's context. */
  failedStep: { code: string; location(step: number, ctx: Ctx): string };
}

export interface KindPlan<Ctx = never> {
  timeline: KindTimeline;
  failures: FailureCodes<Ctx>;
}

/**
 * The failure codes an outcome plan may name for a kind, in order: its own, then `interrupted`.
 * @example failureCodesOf(PLAN.failures) // ['dataset_invalid', 'diverged', 'interrupted']
 */
export function failureCodesOf(failures: Pick<FailureCodes, 'messages'>): string[] {
  return [...Object.keys(failures.messages), 'interrupted'];
}
