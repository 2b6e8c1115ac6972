/** Outcome plans (DESIGN.md section 4): one schema for all kinds, `assertOutcomePlan` per kind. */
import { z } from 'zod';

const Name = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'expected a lower-case code');

export const OutcomeEntry = z.union([
  z
    .object({ succeed: z.object({ success_rate: z.number().min(0).max(1).optional() }).strict() })
    .strict(),
  z
    .object({
      fail: Name,
      at: Name.optional(),
      after_episodes: z.number().int().min(0).optional(),
      message: z.string().min(1).max(2000).optional(),
      param: z.string().min(1).max(200).optional(),
    })
    .strict(),
]);
export type OutcomeEntry = z.infer<typeof OutcomeEntry>;
export const OutcomePlan = z.array(OutcomeEntry).max(100);

/** A scenario's outcome rule: the plan of the runs it matches (engine/run-commands.ts `planFor`). */
export const OutcomeRule = z
  .object({
    match: z
      .object({
        spec_name: z.string().optional(),
        label: z.string().optional(),
        kind: z.string().optional(),
      })
      .strict(),
    outcomes: OutcomePlan,
  })
  .strict();
export type OutcomeRule = z.infer<typeof OutcomeRule>;
