// The cold-start floor (issue 12 item 6): a bare Hono + @hono/zod-openapi server with one
// OpenAPI route, served by @hono/node-server, run with plain `node` as the emulator's compiled
// `dist/main.js` is. Prints its URL once listening, as the emulator's banner does.
// Usage: node test/bench/cold-floor.mjs [port]
import { serve } from '@hono/node-server';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';

const Key = z
  .object({
    id: z.string(),
    object: z.literal('api_key'),
    name: z.string(),
    scopes: z.array(z.string()),
    created_at: z.string(),
  })
  .openapi('ApiKey');

const route = createRoute({
  method: 'get',
  path: '/v1/keys/me',
  request: { headers: z.object({ authorization: z.string().startsWith('Bearer ') }) },
  responses: {
    200: { content: { 'application/json': { schema: Key } }, description: 'The calling key' },
  },
});

const app = new OpenAPIHono();
app.openapi(route, (c) =>
  c.json(
    {
      id: 'key_00000000000000000000000001',
      object: 'api_key',
      name: 'Default',
      scopes: ['evaluations:read', 'evaluations:write'],
      created_at: '2025-01-01T00:00:00Z',
    },
    200,
  ),
);

serve({ fetch: app.fetch, port: Number(process.argv[2] ?? 0), hostname: '127.0.0.1' }, (info) => {
  console.log(`floor listening on http://127.0.0.1:${info.port}`);
});
