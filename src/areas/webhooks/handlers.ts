import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { toTimestamp } from '../../core/clock.js';
import { checkCursor } from '../../core/cursor.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import { listPage } from '../../core/paging.js';
import {
  createWebhookEndpointRoute,
  deleteWebhookEndpointRoute,
  getWebhookEndpointRoute,
  listWebhookEndpointsRoute,
} from './contract.js';
import { toWebhookEndpoint } from './endpoint-view.js';
import { createWebhookEndpoint } from './endpoints.js';
import type { WebhookEndpointRecord } from './records.js';

/** DESIGN.md section 3: a deleted endpoint answers 404 like an unknown one, everywhere. */
function findLive(c: Context<AppEnv>, endpointId: string): WebhookEndpointRecord {
  const endpoint = c.get('deps').store.webhookEndpoints.get(c.get('auth').account.id, endpointId);
  if (!endpoint || endpoint.deletedAt) {
    throw notFound('webhook endpoint', endpointId, 'endpoint_id');
  }
  return endpoint;
}

/** `inferred: false` (--strict) registers only the documented DELETE. */
export function registerWebhooks(app: OpenAPIHono<AppEnv>, inferred: boolean): void {
  app.openapi(deleteWebhookEndpointRoute, (c) => {
    const { store } = c.get('deps');
    const { endpoint_id } = c.req.valid('param');
    store.tx(() => {
      findLive(c, endpoint_id);
      store.webhookEndpoints.markDeleted(endpoint_id, toTimestamp(c.get('now')));
    });
    return c.json({ id: endpoint_id, object: 'webhook_endpoint' as const, deleted: true }, 200);
  });

  if (!inferred) return;

  app.openapi(createWebhookEndpointRoute, (c) => {
    const deps = c.get('deps');
    const body = c.req.valid('json');
    const created = deps.store.tx(() =>
      createWebhookEndpoint(deps, c.get('auth').account, body, c.get('now')),
    );
    // The signing secret is shown here only: reads never include it.
    return c.json({ ...toWebhookEndpoint(created), secret: created.secret }, 201);
  });

  app.openapi(getWebhookEndpointRoute, (c) =>
    c.json(toWebhookEndpoint(findLive(c, c.req.valid('param').endpoint_id)), 200),
  );

  app.openapi(listWebhookEndpointsRoute, (c) => {
    const { after, limit } = c.req.valid('query');
    const { store } = c.get('deps');
    const accountId = c.get('auth').account.id;
    const owns = (id: string) => store.webhookEndpoints.existsLive(accountId, id);
    checkCursor(after, owns, 'a webhook endpoint');
    const page = store.webhookEndpoints.list(accountId, { after, limit });
    const data = page.data.map(toWebhookEndpoint);
    const body = listPage(data, page.hasMore, 'webhook_endpoint', (e) => e.id);
    return c.json(body, 200);
  });
}
