/** The control API's account and key bodies (DESIGN.md section 5), shared with scenario files. */
import { z } from '@hono/zod-openapi';
import { LimitsSchema } from '../../core/accounts/limits.js';
import { ClockInstant, ClockModeSchema, Instant } from '../../core/clock-inputs.js';
import { seedId } from '../../core/seed-ids.js';

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
