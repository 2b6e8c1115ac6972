import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { getKeyRoute } from '../contract/keys.js';

export function registerKeys(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getKeyRoute, (c) => {
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
