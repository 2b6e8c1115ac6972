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
    created_at: e.createdAt,
  };
}
