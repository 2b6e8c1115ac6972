import type { OpenAPIHono } from '@hono/zod-openapi';
import { deleteWebhookEndpointRoute } from '../contract/webhooks.js';
import { notFound } from '../errors.js';
import type { AppEnv } from '../http/env.js';
import { guardRoute } from '../http/guard-route.js';
import { toTimestamp } from '../runtime/clock.js';

export function registerWebhooks(app: OpenAPIHono<AppEnv>): void {
  app.openapi(guardRoute(deleteWebhookEndpointRoute), (c) => {
    const { store } = c.get('deps');
    const { account } = c.get('auth');
    const { endpoint_id } = c.req.valid('param');
    store.tx(() => {
      const endpoint = store.webhookEndpoints.get(account.id, endpoint_id);
      // DESIGN.md section 3: a deleted id answers 404 like an unknown one.
      if (!endpoint || endpoint.deletedAt) {
        throw notFound('webhook endpoint', endpoint_id, 'endpoint_id');
      }
      store.webhookEndpoints.markDeleted(endpoint_id, toTimestamp(c.get('now')));
    });
    return c.json({ id: endpoint_id, object: 'webhook_endpoint' as const, deleted: true }, 200);
  });
}
