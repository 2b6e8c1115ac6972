/** An account's limits (DESIGN.md section 3): part of its record, set by control and scenarios. */
import { z } from '@hono/zod-openapi';

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
