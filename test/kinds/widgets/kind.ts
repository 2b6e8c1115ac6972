import { defineKind } from '../../../src/engine/define-kind.js';
import type { KindPlan } from '../../../src/engine/kind-plan.js';
import type { RunRequest } from '../../../src/engine/records.js';
import { parseRunOptions, timelineOf } from '../../../src/engine/run-options.js';
import { sharedRequestFields } from '../../../src/engine/run-request.js';
import { ADDRESS } from './contract.js';

interface WidgetRequest extends RunRequest {
  coats: number;
}

/** Its timeline and failure codes, stated once. */
const PLAN = {
  timeline: {
    phases: ['sanding', 'coating', 'drying'],
    stepPhase: 'coating',
    stepNoun: 'coat',
    defaults: { queue: 1, sanding: 1, coat: 0.5, drying: 1 },
  },
  failures: {
    messages: { warped: 'The widget warped.', smudged: 'A coat smudged.' },
    invalidInput: { code: 'warped', param: 'coats' },
    failedStep: { code: 'smudged', location: (step: number) => `coats/${step}` },
  },
} satisfies KindPlan;

/** The widget kind: data and pure functions only, as DESIGN.md section 7 asks of a kind. */
export const widgetKind = defineKind<
  WidgetRequest,
  WidgetRequest,
  { shine: number; coats: number }
>({
  ...ADDRESS,
  ...PLAN,
  prepare(body) {
    const options = (body.options ?? {}) as Record<string, unknown>;
    parseRunOptions(PLAN, options);
    return { coats: body.coats as number, ...sharedRequestFields(body) };
  },
  hardwareTier: () => null,
  fields: ({ request }, state) => ({ coats: state.episodes ?? { done: 0, total: request.coats } }),
  plan(request) {
    const { durations_s } = parseRunOptions(PLAN, request.options);
    return {
      ...timelineOf(PLAN.timeline, durations_s, request.coats),
      estimate: 3 * request.coats,
    };
  },
  failurePlan: (outcome) =>
    'fail' in outcome
      ? { phase: outcome.at ?? 'coating', afterSteps: outcome.after_episodes }
      : undefined,
  context: (request) => request,
  queuedLine: (request, attempt) => `attempt ${attempt} queued: ${request.coats} coats`,
  stepLine: (_ctx, index, total) => `coat ${index}/${total} applied`,
  success: (ctx, steps) => ({
    result: { shine: steps / ctx.coats, coats: steps },
    line: `widget polished: ${steps} coats`,
  }),
  archive: (_ctx, result, _steps, logs) => [
    { path: 'widget.json', content: `${JSON.stringify(result)}\n` },
    { path: 'logs/widget.log', content: logs.map((l) => `${l}\n`).join('') },
  ],
});
