import type { RunRequest } from '../../../src/core/records.js';
import type { RunKind } from '../../../src/engine/run-kind.js';
import { type KindTimeline, parseRunOptions, timelineOf } from '../../../src/engine/run-options.js';
import { sharedRequestFields } from '../../../src/engine/run-request.js';
import { failureOf } from '../../../src/engine/timeline/failure.js';
import { ADDRESS } from './contract.js';

interface WidgetRequest extends RunRequest {
  coats: number;
}

const TIMELINE: KindTimeline = {
  phases: ['sanding', 'coating', 'drying'],
  stepPhase: 'coating',
  stepNoun: 'coat',
  failureCodes: ['warped', 'smudged', 'interrupted'],
  defaults: { queue: 1, sanding: 1, coat: 0.5, drying: 1 },
};

/** The widget kind: data and pure functions only, as DESIGN.md section 7 asks of a kind. */
export const widgetKind: RunKind<WidgetRequest, WidgetRequest> = {
  ...ADDRESS,
  stepNoun: TIMELINE.stepNoun,
  phases: TIMELINE.phases,
  failureCodes: TIMELINE.failureCodes,
  prepare(body) {
    const options = (body.options ?? {}) as Record<string, unknown>;
    parseRunOptions(TIMELINE, options);
    return { coats: body.coats as number, ...sharedRequestFields(body) };
  },
  hardwareTier: () => null,
  fields: ({ request }, state) => ({ coats: state.episodes ?? { done: 0, total: request.coats } }),
  plan(request) {
    const { durations_s } = parseRunOptions(TIMELINE, request.options);
    return { ...timelineOf(TIMELINE, durations_s, request.coats), estimate: 3 * request.coats };
  },
  failurePlan: (outcome) =>
    'fail' in outcome
      ? { phase: outcome.at ?? 'coating', afterSteps: outcome.after_episodes }
      : undefined,
  context: (request) => request,
  queuedLine: (request, attempt) => `attempt ${attempt} queued: ${request.coats} coats`,
  stepLine: (_ctx, index, total) => `coat ${index}/${total} applied`,
  failure: (_ctx, outcome, schedule) =>
    failureOf(
      {
        messages: { warped: 'The widget warped.', smudged: 'A coat smudged.' },
        invalidInput: { code: 'warped', param: 'coats' },
        failedStep: { code: 'smudged', location: (step) => `coats/${step}` },
      },
      outcome,
      schedule,
    ),
  success: (ctx, steps) => ({
    result: { shine: steps / ctx.coats, coats: steps },
    line: `widget polished: ${steps} coats`,
  }),
  archive: (_ctx, result, _steps, logs) => [
    { path: 'widget.json', content: `${JSON.stringify(result)}\n` },
    { path: 'logs/widget.log', content: logs.map((l) => `${l}\n`).join('') },
  ],
};
