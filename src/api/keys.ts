import type { OpenAPIHono } from '@hono/zod-openapi';
import { getKeyRoute } from '../contract/keys.js';
import type { AppEnv } from '../http/env.js';
import { guardRoute } from '../http/guard-route.js';

export function registerKeys(app: OpenAPIHono<AppEnv>): void {
  app.openapi(guardRoute(getKeyRoute), (c) => {
    const { key } = c.get('auth');
    return c.json(
      {
        id: key.id,
        object: 'api_key' as const,
        name: key.name,
        scopes: key.scopes,
        created_at: key.createdAt,
      },
      200,
    );
  });
}
