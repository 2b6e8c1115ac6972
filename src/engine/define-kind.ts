/**
 * A kind stated once (STYLE.md rule 16): its plan (timeline and failure codes) and its functions;
 * the engine's view of it (`RunKind`) takes its phases, step noun, failure codes, where each
 * failure strikes and how it shows from the plan, unless the kind says otherwise.
 */
import { failureCodesOf, type KindPlan } from './kind-plan.js';
import type { RunRequest } from './records.js';
import type { RunKind } from './run-kind.js';
import { failureOf, failurePlanOf } from './timeline/failure.js';

type Derived = 'stepNoun' | 'phases' | 'failureCodes' | 'failurePlan' | 'failure';

/** What a kind states: its plan, its functions, and optionally its own failure plan or failure. */
export type KindDefinition<Req extends RunRequest, Ctx, Res extends Record<string, unknown>> = Omit<
  RunKind<Req, Ctx, Res>,
  Derived
> &
  KindPlan<Ctx> &
  Partial<Pick<RunKind<Req, Ctx, Res>, 'failurePlan' | 'failure'>>;

/**
 * The engine's view of a kind from what it states once.
 * @example export const widgetKind = defineKind<WidgetRequest, Ctx, Result>({ ...ADDRESS, ...PLAN, prepare, ... })
 */
export function defineKind<Req extends RunRequest, Ctx, Res extends Record<string, unknown>>(
  definition: KindDefinition<Req, Ctx, Res>,
): RunKind<Req, Ctx, Res> & KindPlan<Ctx> {
  const { timeline, failures } = definition;
  return {
    ...definition,
    stepNoun: timeline.stepNoun,
    phases: timeline.phases,
    failureCodes: failureCodesOf(failures),
    failurePlan: definition.failurePlan ?? ((outcome) => failurePlanOf(definition, outcome)),
    failure:
      definition.failure ??
      ((ctx, outcome, schedule) => failureOf(failures, outcome, schedule, ctx)),
  };
}
