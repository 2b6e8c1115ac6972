import type { OpenAPIHono } from '@hono/zod-openapi';
import { listTwinFilesRoute } from '../contract/twins.js';
import { listPage } from '../domain/paging.js';
import { apiError, notFound } from '../errors.js';
import type { AppEnv } from '../http/env.js';
import { guardRoute } from '../http/guard-route.js';

export function registerTwins(app: OpenAPIHono<AppEnv>): void {
  app.openapi(guardRoute(listTwinFilesRoute), (c) => {
    const { store } = c.get('deps');
    const { twin_id } = c.req.valid('param');
    const { after, limit } = c.req.valid('query');
    const twin = store.twins.get(c.get('auth').account.id, twin_id);
    if (!twin) throw notFound('twin', twin_id, 'twin_id');
    if (twin.status !== 'succeeded') {
      throw apiError('twin_not_ready', {
        message: `The twin is ${twin.status}; its files are listed once it has succeeded.`,
      });
    }
    const page = store.twinFiles.page(twin_id, after ?? '', limit);
    return c.json(
      listPage(page.data, page.hasMore, 'twin_file', (f) => f.path),
      200,
    );
  });
}
