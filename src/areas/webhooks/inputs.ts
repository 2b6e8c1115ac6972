/** The control API's webhook endpoint body (DESIGN.md section 5), shared with scenario files. */
import { z } from '@hono/zod-openapi';
import { Metadata } from '../../core/contract.js';
import { seedId } from '../../core/seed-ids.js';

export const WebhookEndpointInput = z
  .object({
    id: seedId('whe'),
    url: z.url(),
    events: z.array(z.string()).optional(),
    description: z.string().max(500).nullable().optional(),
    metadata: Metadata.optional(),
  })
  .strict()
  .openapi('ControlWebhookEndpointInput', {
    example: { url: 'https://example.com/hooks', events: ['evaluation.succeeded'] },
  });
export type WebhookEndpointInput = z.infer<typeof WebhookEndpointInput>;
