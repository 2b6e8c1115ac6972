/** The control API's user asset body (DESIGN.md section 5), shared with scenario files. */
import { z } from '@hono/zod-openapi';
import { seedId } from '../../core/seed-ids.js';

export const UserAssetInput = z
  .object({
    id: seedId('(env|obj)'),
    name: z.string().min(1).max(200),
    status: z.enum(['validated', 'pending', 'failed']).default('validated'),
  })
  .strict()
  .openapi('ControlUserAssetInput', { example: { name: 'Kitchen counter' } });
export type UserAssetInput = z.infer<typeof UserAssetInput>;
