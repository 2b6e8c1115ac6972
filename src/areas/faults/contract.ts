/** Fault rules' request shapes (DESIGN.md section 5): what `/_control/faults` and scenario files accept. */
import { z } from '@hono/zod-openapi';
import { ERROR_CATALOG, type ErrorCode } from '../../core/errors.js';

export const FAULT_STATUSES = [400, 401, 402, 403, 404, 409, 413, 429, 500, 502, 503, 504] as const;

/** The statuses a fault `after` the work answers with: the server's own failures (issue 38). */
export const AFTER_STATUSES = [500, 502, 503, 504] as const;

/** The longest a hang holds a call (wall ms): past any client's timeout worth testing. */
export const MAX_HANG_MS = 600_000;

const After = z.boolean().optional().openapi({
  description:
    'Strike after the call has done its work: the resource is made or changed, charged and journaled; only the answer is lost.',
});

const FAULT_CODES = Object.keys(ERROR_CATALOG).filter(
  (c) => c !== 'control_unauthorized' && c !== 'cross_origin_forbidden',
) as ErrorCode[];

export const FaultStatus = z
  .number()
  .int()
  .refine((s) => (FAULT_STATUSES as readonly number[]).includes(s), {
    message: `expected one of ${FAULT_STATUSES.join(', ')}`,
  });

export const FaultCode = z.string().refine((c) => (FAULT_CODES as string[]).includes(c), {
  message: 'expected an error code of the catalog (docs/api.md, "Errors")',
});

export const ErrorResponse = z
  .object({
    status: FaultStatus,
    code: FaultCode.optional(),
    message: z.string().min(1).max(1000).optional(),
    param: z.string().max(200).nullable().optional(),
    details: z.record(z.string(), z.unknown()).nullable().optional(),
    retry_after: z.number().int().min(0).max(86_400).optional(),
    after: After,
  })
  .strict()
  .refine((r) => !r.after || (AFTER_STATUSES as readonly number[]).includes(r.status), {
    path: ['status'],
    message: `a fault after the work answers ${AFTER_STATUSES.join(', ')}`,
  });
export const DelayResponse = z.object({ delay_ms: z.number().int().min(0).max(60_000) }).strict();
export const DropResponse = z.object({ drop: z.literal(true), after: After }).strict();
/** Hold the answer `hang_ms` of wall time, then close the connection without one. */
export const HangResponse = z
  .object({ hang_ms: z.number().int().min(0).max(MAX_HANG_MS), after: After })
  .strict();

export const FaultRespond = z
  .union([ErrorResponse, DelayResponse, DropResponse, HangResponse])
  .openapi('FaultRespond', {
    description:
      '`{status, code?, message?, param?, details?, retry_after?, after?}`, or `{delay_ms}`, or `{drop: true, after?}`, or `{hang_ms, after?}`.',
  });
export type FaultRespond = z.infer<typeof FaultRespond>;
/** What a fault does to a call: every answer but a delay (which only holds it). */
export type StrikeRespond = Exclude<FaultRespond, { delay_ms: number }>;

export const FaultMatch = z
  .object({
    method: z
      .string()
      .regex(/^[A-Za-z]+$/)
      .transform((m) => m.toUpperCase())
      .optional(),
    route: z
      .string()
      .startsWith('/')
      .optional()
      .openapi({ description: 'A route template, e.g. `/v1/evaluations/{run_id}/resume`.' }),
    operation: z.string().min(1).optional().openapi({ example: 'resumeEvaluation' }),
    account: z.string().min(1).optional(),
    key: z.string().min(1).optional(),
  })
  .strict()
  .openapi('FaultMatch');
export type FaultMatch = z.infer<typeof FaultMatch>;

export const FaultRuleInput = z
  .object({
    match: FaultMatch.default({}),
    respond: FaultRespond,
    /** Fire at most this many times; absent: every time. */
    times: z.number().int().min(1).optional(),
    /** Let this many matching calls through before firing. */
    skip: z.number().int().min(0).default(0),
    /** Fire on a matching call with this probability (seeded PRNG). */
    probability: z.number().min(0).max(1).optional(),
  })
  .strict()
  .openapi('FaultRuleInput', {
    example: {
      match: { operation: 'createEvaluation' },
      respond: { status: 429, code: 'rate_limit_exceeded', retry_after: 1 },
      times: 1,
    },
  });
export type FaultRuleInput = z.input<typeof FaultRuleInput>;

/** An installed rule: its input, id, creation time and counters. */
type ParsedRule = z.output<typeof FaultRuleInput>;

export interface FaultRule extends ParsedRule {
  id: string;
  createdAt: string;
  hits: number;
  /** Matching calls let through by `skip`. */
  skipped: number;
}
