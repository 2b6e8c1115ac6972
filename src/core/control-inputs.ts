/** Request bodies of the control API (DESIGN.md section 5), shared with scenario files. */
import { z } from '@hono/zod-openapi';
import { OutcomePlan } from '../engine/contract/outcomes.js';
import { RUN_STATUSES, RunError, StepCounter, Tokens } from '../engine/contract/run-shapes.js';
import { seedShape } from '../engine/contract/seed-shape.js';
import {
  CLOCK_FLOOR_MESSAGE,
  CLOCK_LIMIT_MESSAGE,
  MAX_VIRTUAL_MS,
  MIN_VIRTUAL_MS,
  parseClockMode,
} from './clock-mode.js';
import { FileEntry, Metadata } from './contract.js';

/** A fixed id for a seeded record: `<prefix>_` and up to 64 letters and digits. */
export const seedId = (prefix: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`))
    .optional();

export const ClockModeSchema = z
  .string()
  .refine((v) => parseClockMode(v) !== undefined, {
    message: "expected 'manual', 'realtime' or 'scaled:N' with N > 0",
  })
  .openapi({ example: 'manual' });

export const Instant = z.iso
  .datetime({ offset: true })
  .openapi({ example: '2026-01-01T00:00:00.000Z' });

/** An instant a clock may be put at: from MIN_VIRTUAL_MS to MAX_VIRTUAL_MS (clock-mode.ts). */
export const ClockInstant = z.iso
  .datetime({ offset: true })
  .refine((v) => Date.parse(v) >= MIN_VIRTUAL_MS, { message: CLOCK_FLOOR_MESSAGE })
  .refine((v) => Date.parse(v) <= MAX_VIRTUAL_MS, { message: CLOCK_LIMIT_MESSAGE })
  .openapi({ example: '2026-01-01T00:00:00.000Z' });

export const LimitsSchema = z
  .object({
    requests_per_minute: z.number().int().min(1).optional(),
    concurrent_runs: z.number().int().min(1).optional(),
    tier_capacity: z
      .record(z.string().min(1).max(64), z.number().int().min(0).max(10_000))
      .optional()
      .openapi({
        description:
          "Runs at once per hardware tier (`capacity_exceeded` beyond), replacing the catalog's `concurrent_runs` for this account.",
      }),
  })
  .strict();

export const AccountInput = z
  .object({
    id: seedId('acct'),
    name: z.string().min(1).max(200).optional(),
    features: z.array(z.enum(['twins'])).optional(),
    token_balance: z.number().int().min(0).optional(),
    limits: LimitsSchema.optional(),
    download_mode: z.enum(['auth', 'signed']).optional(),
    clock: z
      .object({ mode: ClockModeSchema.optional(), start: ClockInstant.optional() })
      .strict()
      .optional(),
  })
  .strict()
  .openapi('ControlAccountInput', {
    example: { name: 'SDK tests', token_balance: 100000, clock: { mode: 'manual' } },
  });
export type AccountInput = z.infer<typeof AccountInput>;

/** A key's body: its scopes are the registered kinds' and the other areas' (`scopes`). */
export const keyInput = (scopes: readonly string[]) =>
  z
    .object({
      id: seedId('key'),
      name: z.string().min(1).max(200),
      scopes: z.array(z.enum(scopes as [string, ...string[]])),
      expires_at: Instant.optional(),
      secret: z
        .string()
        .regex(/^svc_[A-Za-z0-9_]{8,200}$/)
        .optional()
        .openapi({ description: 'A fixed secret; generated from the seed when absent.' }),
    })
    .strict()
    .openapi('ControlKeyInput', {
      example: { name: 'read-only', scopes: ['evaluations:read'] },
    });
export type KeyInput = z.infer<ReturnType<typeof keyInput>>;

export const UserAssetInput = z
  .object({
    id: seedId('(env|obj)'),
    name: z.string().min(1).max(200),
    status: z.enum(['validated', 'pending', 'failed']).default('validated'),
  })
  .strict()
  .openapi('ControlUserAssetInput', { example: { name: 'Kitchen counter' } });
export type UserAssetInput = z.infer<typeof UserAssetInput>;

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
