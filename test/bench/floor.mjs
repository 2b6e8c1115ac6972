// The floor of `npm run bench`: a bare Hono + @hono/zod-openapi server answering GET /v1/keys/me,
// one route made with createRoute and registered with app.openapi (which checks the header as the
// emulator's routes check theirs), served by @hono/node-server and run with plain `node`, as the
// emulator's compiled `dist/main.js` is. Prints its URL once listening, as the emulator's banner
// does. The body is the JSON given as the first argument (the bench passes the emulator's own
// keys/me answer, so both send the same bytes), or a key like the emulator's default one.
// It also serves GET /v1/evaluations with a query validated by the same route machinery and one
// defaultHook that throws, rendered by onError as an error envelope: the stock path's own cost of
// a 400 (`limit=0`), which the error-path scenario sets beside the emulator's.
// And POST /v1/evaluations/{id}/resume, a route with a path parameter and no request body (the API
// document: "Request body: none"), answering every id 404 with an error envelope: what the stock
// path costs for a POST, with or without the `{}` body many SDKs send (post-body.ts).
// Usage: node test/bench/floor.mjs ['{"id":"key_...",...}']
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

const body = process.argv[2]
  ? JSON.parse(process.argv[2])
  : {
      id: 'key_00000000000000000000000001',
      object: 'api_key',
      name: 'Default',
      scopes: ['evaluations:read', 'evaluations:write'],
      created_at: '2025-01-01T00:00:00Z',
    };

const list = createRoute({
  method: 'get',
  path: '/v1/evaluations',
  request: {
    headers: z.object({ authorization: z.string().startsWith('Bearer ') }),
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(20),
      after: z.string().optional(),
      status: z
        .enum(['queued', 'processing', 'canceling', 'succeeded', 'failed', 'canceled'])
        .optional(),
    }),
  },
  responses: {
    200: {
      content: { 'application/json': { schema: z.object({ data: z.array(Key) }) } },
      description: 'A page',
    },
  },
});

const resume = createRoute({
  method: 'post',
  path: '/v1/evaluations/{id}/resume',
  request: {
    headers: z.object({ authorization: z.string().startsWith('Bearer ') }),
    params: z.object({ id: z.string() }),
  },
  responses: {
    202: { content: { 'application/json': { schema: Key } }, description: 'The run' },
    404: { description: 'No such evaluation' },
  },
});

class ParamError extends Error {}
const app = new OpenAPIHono({
  defaultHook: (result) => {
    if (result.success) return;
    const issue = result.error.issues[0];
    throw Object.assign(new ParamError(issue.message), { param: issue.path.join('.') });
  },
});
app.onError((err, c) =>
  c.json(
    {
      error: {
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        message: err.message,
        param: err.param ?? null,
        request_id: 'req_floor',
        details: null,
      },
    },
    400,
  ),
);
app.openapi(route, (c) => c.json(body, 200));
app.openapi(list, (c) => c.json({ data: [] }, 200));
app.openapi(resume, (c) =>
  c.json(
    {
      error: {
        type: 'invalid_request_error',
        code: 'resource_not_found',
        message: `No such evaluation: '${c.req.valid('param').id}'.`,
        param: 'evaluation_id',
        request_id: 'req_floor',
        details: null,
      },
    },
    404,
  ),
);

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`floor listening on http://127.0.0.1:${info.port}`);
});
