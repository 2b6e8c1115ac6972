/** Outcome plans (DESIGN.md section 4 "Outcomes"): what each attempt of a run will do. */
import { z } from 'zod';
import { EVALUATION_ERROR_CODES, PHASES } from './evaluations.js';

export const OutcomeEntry = z.union([
  z
    .object({
      succeed: z.object({ success_rate: z.number().min(0).max(1).optional() }).strict(),
    })
    .strict(),
  z
    .object({
      fail: z.enum(EVALUATION_ERROR_CODES),
      at: z.enum(PHASES).optional(),
      after_episodes: z.number().int().min(0).optional(),
      message: z.string().min(1).max(2000).optional(),
      param: z.string().min(1).max(200).optional(),
    })
    .strict(),
]);
export type OutcomeEntry = z.infer<typeof OutcomeEntry>;
export const OutcomePlan = z.array(OutcomeEntry).max(100);
