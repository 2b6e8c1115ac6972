/**
 * The memory floor of `npm run bench` (issue 12 item 4): a bare Hono + @hono/zod-openapi server
 * with one route, run by plain `node` as the compiled emulator is, so the two RSS figures compare
 * what each server holds over the same runtime. Prints `listening on <url>` once it listens.
 */
import { serve } from '@hono/node-server';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';

const Key = z.object({ id: z.string(), object: z.literal('api_key'), name: z.string() });
const route = createRoute({
  method: 'get',
  path: '/v1/keys/me',
  responses: { 200: { content: { 'application/json': { schema: Key } }, description: 'The key.' } },
});
const app = new OpenAPIHono();
app.openapi(route, (c) => c.json({ id: 'key_floor', object: 'api_key', name: 'floor' }, 200));
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
