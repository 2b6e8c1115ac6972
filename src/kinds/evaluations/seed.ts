/** Evaluations seeded by the control API (DESIGN.md section 5); `legacy` gives an `srun_` id. */
import { z } from '@hono/zod-openapi';
import { Instant } from '../../core/clock-inputs.js';
import { FileEntry, Metadata } from '../../core/contract.js';
import { OutcomePlan } from '../../engine/contract/outcomes.js';
import {
  Download,
  RUN_STATUSES,
  RunError,
  StepCounter,
  Tokens,
} from '../../engine/contract/run-shapes.js';
import { seedShape } from '../../engine/contract/seed-shape.js';
import type { KindSeed } from '../../engine/run-kind.js';
import { sharedRequestFields } from '../../engine/run-request.js';
import { Evaluation, EvaluationResult, PHASES, Spec } from './contract.js';
import { parseEvaluationOptions } from './plan.js';

const SeedInput = z
  .object({
    id: z
      .string()
      .regex(/^(eval|srun)_[0-9A-Za-z]{1,64}$/)
      .optional(),
    legacy: z.boolean().optional().openapi({ description: 'Generate an `srun_` id.' }),
    spec: Spec,
    options: Metadata.optional(),
    label: z.string().nullable().optional(),
    webhook_metadata: Metadata.nullable().optional(),
    service_version: z.string().nullable().optional(),
    status: z.enum(RUN_STATUSES).optional().openapi({
      description:
        'A fixed state (with the fields below as given). Without it the run is put on the clock like a created one, following `outcomes`.',
    }),
    outcomes: OutcomePlan.optional().openapi({
      description:
        'The outcome plan. On the clock: one entry per attempt, the first for the run itself. With a fixed `status`: the plan of the resumes, the first resume taking the first entry.',
    }),
    phase: z.enum(PHASES).nullable().optional(),
    progress: z.number().min(0).max(1).optional(),
    status_message: z.string().nullable().optional(),
    episodes: StepCounter.nullable().optional(),
    // As the body shows them; nullable fields and lists may be left out (null, empty).
    error: seedShape(RunError).nullable().optional(),
    result: seedShape(EvaluationResult).nullable().optional(),
    download: seedShape(Download).nullable().optional(),
    tokens: Tokens.optional(),
    started_at: Instant.nullable().optional(),
    completed_at: Instant.nullable().optional(),
    logs: z.array(z.string()).optional(),
    files: z.array(FileEntry).optional(),
  })
  .strict()
  .openapi('ControlEvaluationInput', {
    example: {
      spec: { path: 'specs/pick_place.yaml', name: 'pick_place' },
      status: 'failed',
      error: { code: 'policy_failed', message: 'The policy crashed.', resumable: true },
    },
  });
type SeedInput = z.infer<typeof SeedInput>;

/** The control API's own seeding of evaluations (the generic `/runs` seeds them too). */
export const evaluationSeed: KindSeed<'seedEvaluation', typeof SeedInput, typeof Evaluation> = {
  operationId: 'seedEvaluation',
  summary: 'An evaluation in a given state, with its logs and files',
  description:
    'Creates an evaluation in a fixed state (with the fields given), or without `status` puts it on the clock like a created one, following `outcomes`. Logs and files may be given.',
  input: SeedInput,
  response: Evaluation,
  errors: {
    400: undefined,
    402: 'A run put on the clock is charged like a created one: `insufficient_tokens`.',
    404: undefined,
  },
  seed(body, ops) {
    const input = body as SeedInput;
    const id = input.id ?? ops.newId(input.legacy ? 'srun' : 'eval');
    ops.ensureNew(id);
    ops.checkPlan(input.outcomes);
    const request = { spec: input.spec, ...sharedRequestFields(input) };
    if (input.status !== undefined)
      return ops.fix(id, request, { ...input, status: input.status, steps: input.episodes });
    // What the plan reads from `options.emulator` is checked as a create request would be.
    parseEvaluationOptions(request.options);
    return ops.start(id, request, input);
  },
};
