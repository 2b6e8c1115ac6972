/**
 * The shapes every run kind shares (DESIGN.md section 7, "the shape of an Evaluation where it
 * applies"), modeled on the evaluation's (API document sections 2.2 to 2.5), whose names they keep.
 */
import { z } from '@hono/zod-openapi';
import { INFERRED, Metadata, Timestamp } from '../../core/contract.js';

/** Every run kind's statuses are the evaluation's six (API document section 3.1). */
export const RUN_STATUSES = [
  'queued',
  'processing',
  'canceling',
  'succeeded',
  'failed',
  'canceled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Where a kind lives (DESIGN.md section 7 table): what its registration names once. */
export interface RunKindAddress {
  /** The `object` of its bodies and the first part of its event types. */
  name: string;
  /** Its id prefix, without the `_`. */
  prefix: string;
  /** Older prefixes its ids may carry, accepted everywhere. */
  legacyPrefixes?: readonly string[];
  /** The path segment under `/v1`. */
  collection: string;
  /** The scope resource: `<scope>:read` and `<scope>:write`. */
  scope: string;
  /** An account feature the kind needs. */
  feature?: string;
  /** Where its logs and files are served, if not under `collection`. */
  logsAndFilesUnder?: string;
  /** Its area in the API document's section 1 table (the OpenAPI tag), and what it does. */
  tag: string;
  tagDescription: string;
}

/** API document section 2.3, the error every kind's run shows. */
export const RunError = z
  .object({
    code: z.string().openapi({
      description:
        'What failed; values include spec_invalid, policy_failed, verification_failed, interrupted.',
    }),
    message: z.string(),
    resumable: z.boolean(),
    // Section 2.3 makes `param` and `details` optional; every body has them, null when empty.
    param: z.string().nullable(),
    details: z
      .object({
        service_code: z.string().optional(),
        remediation: z.string().optional(),
        location: z.string().optional(),
      })
      .catchall(z.unknown())
      .nullable(),
  })
  .openapi('EvaluationError');
export type RunError = z.infer<typeof RunError>;

/** API document section 2.5; `expires_at` (optional there) is in every body, null for auth mode. */
export const Download = z
  .object({
    url: z.string(),
    requires_auth: z.boolean(),
    expires_at: z.string().nullable(),
    filename: z.string(),
    bytes: z.number().int(),
    sha256: z.string(),
  })
  .openapi('EvaluationDownload');
export type Download = z.infer<typeof Download>;

/** A step counter in a kind's body: done of total. */
export const StepCounter = z.object({ done: z.number().int(), total: z.number().int() });
export type StepCounter = z.infer<typeof StepCounter>;

export const Tokens = z.object({ charged: z.number().int(), refunded: z.number().int() });

/** A 95% Wilson interval `[low, high]` (domain/wilson-interval.ts); null over no episodes. */
export const Interval = z
  .array(z.number())
  .length(2)
  .nullable()
  .openapi({ description: 'The 95% Wilson interval `[low, high]`; null over no episodes.' });

/** The policy a run produced: `pol_` and the run's ULID, listed in the account's catalog. */
export const ProducedPolicy = z.object({ id: z.string(), name: z.string(), robot: z.string() });
export type Tokens = z.infer<typeof Tokens>;

export const pascal = (snake: string) =>
  snake
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * The fields every run body shares, around the kind's own (`fields`); `result` is what a succeeded
 * run yields (`description` says it in words), null before.
 */
export function runResource<T extends z.ZodRawShape, R extends z.ZodObject>(
  name: string,
  fields: T,
  result: R,
  description: string,
) {
  return z
    .object({
      id: z.string(),
      object: z.literal(name),
      status: z.enum(RUN_STATUSES),
      phase: z.string().nullable().openapi({ description: "One of the kind's phases, or null." }),
      progress: z.number().min(0).max(1),
      status_message: z.string().nullable(),
      ...fields,
      error: RunError.nullable(),
      service_version: z.string().nullable(),
      options: Metadata,
      label: z.string().nullable(),
      result: result.nullable().openapi({
        description: `What the run yields once it succeeded: ${description}`,
      }),
      download: Download.nullable(),
      tokens: Tokens,
      webhook_metadata: Metadata.nullable(),
      created_at: Timestamp,
      started_at: Timestamp.nullable(),
      completed_at: Timestamp.nullable(),
      links: z.record(z.string(), z.string()),
    })
    .openapi(pascal(name), INFERRED);
}

/** The fields every create body shares, after the kind's own. */
export const RunCreateCommon = {
  options: Metadata.optional().openapi({
    description:
      'Run options (free-form). The emulator reads `emulator`: `outcomes` (the outcome plan) and `durations_s`.',
  }),
  label: z.string().max(200).nullable().optional(),
  webhook_metadata: Metadata.nullable().optional(),
};

export const RunLogs = (name: string) =>
  z
    .object({ id: z.string(), object: z.literal(`${name}_logs`), lines: z.array(z.string()) })
    .openapi(`${pascal(name)}Logs`, INFERRED);

export const LogsLimit = z.coerce
  .number()
  .int()
  .min(1)
  .max(5000)
  .default(100)
  .openapi({ description: 'How many of the last lines to return, 1 to 5000.', ...INFERRED });
