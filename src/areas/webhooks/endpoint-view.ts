import type { WebhookEndpointRecord } from './records.js';

/** The webhook endpoint object (inferred, DESIGN.md section 3) of a stored endpoint. */
export function toWebhookEndpoint(e: WebhookEndpointRecord) {
  return {
    id: e.id,
    object: 'webhook_endpoint' as const,
    url: e.url,
    events: e.events,
    description: e.description,
    metadata: e.metadata,
    status: e.disabledAt === null ? ('enabled' as const) : ('disabled' as const),
    disabled_at: e.disabledAt,
    created_at: e.createdAt,
  };
}
