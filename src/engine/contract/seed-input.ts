/** Control seeding of a run of any kind (DESIGN.md section 5), shared with scenario files. */
import { z } from '@hono/zod-openapi';
import { Instant } from '../../core/clock-inputs.js';
import { FileEntry, Metadata } from '../../core/contract.js';
import { seedId } from '../../core/seed-ids.js';
import { OutcomePlan } from './outcomes.js';
import { RUN_STATUSES, RunError, StepCounter, Tokens } from './run-shapes.js';
import { seedShape } from './seed-shape.js';

/** What control seeding adds to a kind's create body (DESIGN.md section 5): a plan, or a state. */
export const RunSeedFields = {
  id: seedId('[a-z]+').openapi({ description: "A fixed id, with the kind's prefix." }),
  status: z.enum(RUN_STATUSES).optional().openapi({
    description:
      'A fixed state (with the fields below as given). Without it the run is put on the clock like a created one, following `outcomes`.',
  }),
  outcomes: OutcomePlan.optional().openapi({
    description:
      "The outcome plan, with the kind's failure codes. On the clock: one entry per attempt. With a fixed `status`: the plan of the resumes.",
  }),
  phase: z.string().nullable().optional(),
  progress: z.number().min(0).max(1).optional(),
  status_message: z.string().nullable().optional(),
  steps: StepCounter.nullable()
    .optional()
    .openapi({ description: 'The step counter: done of total.' }),
  error: seedShape(RunError).nullable().optional().openapi({
    description: 'As the body shows it; `param` and `details` may be left out (null).',
  }),
  result: Metadata.nullable().optional().openapi({
    description:
      "Checked against the kind's result schema (`/openapi.json`); nullable fields and lists may be left out (null, empty).",
  }),
  tokens: Tokens.optional(),
  service_version: z.string().nullable().optional(),
  started_at: Instant.nullable().optional(),
  completed_at: Instant.nullable().optional(),
  logs: z.array(z.string()).optional(),
  files: z.array(FileEntry).optional().openapi({
    description: 'Its file listing, kept as given (no archive is built for it).',
  }),
};

/** `POST /_control/accounts/{id}/runs` and scenario files' `runs`: `kind`, then its fields. */
export const runSeedInput = (kindNames: readonly string[]) =>
  z
    .object({
      kind: z.enum(kindNames as [string, ...string[]]).openapi({ description: 'The run kind.' }),
    })
    .catchall(z.unknown())
    .openapi('ControlRunInput', {
      example: {
        kind: 'training_run',
        policy: 'pol_01KA0000000000000000PANDA1',
        dataset: 'ds_01KA0000000000000000PANDA1',
        status: 'succeeded',
      },
      description:
        "A run of any kind: `kind`, the kind's create body (as `POST /v1/<kind>` takes it), and the seed fields (`id`, `status`, `outcomes`, `phase`, `progress`, `status_message`, `steps`, `error`, `result`, `tokens`, `service_version`, `started_at`, `completed_at`, `logs`, `files`). Checked against the kind's schemas when seeded.",
    });
/** A run of any kind as control seeding takes it: `kind`, then its fields. */
export interface RunSeedInput {
  kind: string;
  [field: string]: unknown;
}
