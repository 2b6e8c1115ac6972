import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/env.js';
import { getKeyRoute } from './contract.js';

export function registerKeys(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getKeyRoute, (c) => {
    const { id, name, scopes, createdAt } = c.get('auth').key;
    return c.json({ id, object: 'api_key' as const, name, scopes, created_at: createdAt }, 200);
  });
}
