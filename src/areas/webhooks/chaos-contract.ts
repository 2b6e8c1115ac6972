/**
 * Receiver chaos as the documents show it (inferred, an emulator extension; docs/runtime.md
 * "Receiver chaos"): what an endpoint is given, and the receiver report that judges its answers.
 */
import { z } from '@hono/zod-openapi';
import { INFERRED, Timestamp } from '../../core/contract.js';
import { CHAOS_KINDS } from './chaos.js';

const Probability = z.union([z.number().min(0).max(1), z.boolean()], {
  error: 'expected a probability from 0 to 1, or true or false',
});

const KIND_TEXT = {
  duplicate:
    "the event delivered a second time with the same `webhook-id`, 5 virtual seconds (the retry schedule's second delay) after the first was accepted",
  out_of_order:
    'the event held back until a later one of the endpoint is sent (at most 60 virtual seconds)',
  stale_timestamp:
    'an extra delivery signed correctly with a `webhook-timestamp` 10 minutes old (outside the 5-minute tolerance)',
  bad_signature: "an extra delivery signed with another secret than the endpoint's (a forgery)",
  unknown_type:
    'an extra, well-signed delivery of a type no receiver knows (`<noun>.emulator_unknown_type`), with its own `webhook-id`',
} as const satisfies Record<(typeof CHAOS_KINDS)[number], string>;

/** What an endpoint can be given: each kind a probability (0 to 1) or `true` (every delivery). */
export const ReceiverChaosInput = z
  .object(
    Object.fromEntries(
      CHAOS_KINDS.map((k) => [k, Probability.optional().openapi({ description: KIND_TEXT[k] })]),
    ) as Record<(typeof CHAOS_KINDS)[number], z.ZodOptional<typeof Probability>>,
  )
  .strict()
  .openapi('ReceiverChaosInput', {
    ...INFERRED,
    description:
      'Receiver chaos (an emulator extension): per kind, the probability (0 to 1, drawn per delivery from the seed) or `true` for every delivery. Kinds left out, `false` or 0 never happen; `{}` turns chaos off.',
    example: { duplicate: true, bad_signature: 0.5 },
  });

/** An endpoint's chaos as stored: every kind's probability; null when none can happen. */
export const ReceiverChaos = z
  .object(
    Object.fromEntries(CHAOS_KINDS.map((k) => [k, z.number().min(0).max(1)])) as Record<
      (typeof CHAOS_KINDS)[number],
      z.ZodNumber
    >,
  )
  .openapi('ReceiverChaos', {
    description: 'Per kind of receiver chaos, the probability that a delivery gets it.',
  });

/** What a delivery carries, as `GET /_control/webhook_deliveries` shows it. */
export const DeliveryChaos = z.enum(CHAOS_KINDS).nullable().openapi({
  description:
    'The receiver chaos this delivery carries, null for an ordinary one. `bad_signature`, `stale_timestamp`, `unknown_type` and `duplicate` are extra deliveries beside the real one of the event: each made once, judged, never retried nor counted as a failure; `out_of_order` is the real delivery, held back.',
});

const Verdict = z.enum(['pass', 'fail', 'not_judged']);

const Evidence = z.object({
  delivery_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  webhook_id: z.string().openapi({ description: 'The `webhook-id` the attempt was sent with.' }),
  chaos: DeliveryChaos,
  series: z.number().int().nullable(),
  number: z.number().int().nullable(),
  at: Timestamp.nullable().openapi({ description: 'The virtual instant the attempt was due.' }),
  wall_at: Timestamp.nullable().openapi({ description: 'Wall time it started.' }),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  verdict: Verdict,
});

/** The rules of a receiver report: the real deliveries, then one per kind of chaos. */
export const RULES = [
  'genuine',
  'bad_signature',
  'stale_timestamp',
  'duplicate',
  'unknown_type',
  'out_of_order',
] as const;

const Finding = z.object({
  rule: z.enum(RULES),
  verdict: Verdict.openapi({
    description:
      '`fail` when any delivery of the rule got the wrong answer, else `pass` when one got the right one, else `not_judged` (none made, or none answered).',
  }),
  expected: z.enum(['2xx', '4xx']),
  description: z.string(),
  judged: z.number().int().openapi({ description: 'Attempts (or real deliveries) judged.' }),
  passed: z.number().int(),
  failed: z.number().int(),
  evidence: z.array(Evidence).openapi({
    description: 'At most 20: the failed first, then the others, oldest first within each.',
  }),
});

export const ReceiverReport = z
  .object({
    object: z.literal('receiver_report'),
    endpoint_id: z.string(),
    account_id: z.string(),
    url: z.string(),
    chaos: ReceiverChaos.nullable(),
    verdict: Verdict.openapi({
      description: '`fail` when a finding fails, else `pass` when one passes, else `not_judged`.',
    }),
    findings: z.array(Finding).openapi({ description: 'One per rule, always in this order.' }),
  })
  .openapi('ReceiverReport', {
    example: {
      object: 'receiver_report',
      endpoint_id: 'whe_01KDVDNA00BQ3FW7M4Y9CD0QZR',
      account_id: 'acct_00000000000000000000000001',
      url: 'http://127.0.0.1:4000/hooks',
      chaos: {
        duplicate: 1,
        out_of_order: 0,
        stale_timestamp: 0,
        bad_signature: 1,
        unknown_type: 0,
      },
      verdict: 'fail',
      findings: [
        {
          rule: 'bad_signature',
          verdict: 'fail',
          expected: '4xx',
          description: 'A forged delivery (signed with another secret) is refused with a 4xx.',
          judged: 1,
          passed: 0,
          failed: 1,
          evidence: [
            {
              delivery_id: 'whdl_00000002',
              event_id: 'evt_01KDVDNA00GZ9W8AXJ7T2C4B6D',
              event_type: 'evaluation.queued',
              webhook_id: 'evt_01KDVDNA00GZ9W8AXJ7T2C4B6D',
              chaos: 'bad_signature',
              series: 1,
              number: 1,
              at: '2026-01-01T00:00:00.000Z',
              wall_at: '2026-07-14T09:30:00.120Z',
              status_code: 204,
              error: null,
              verdict: 'fail',
            },
          ],
        },
      ],
    },
  });
export type ReceiverReportBody = z.infer<typeof ReceiverReport>;
export type ReportFinding = z.infer<typeof Finding>;
export type ReportEvidence = z.infer<typeof Evidence>;
