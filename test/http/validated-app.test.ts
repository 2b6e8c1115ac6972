import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AppEnv } from '../../src/api/env.js';
import { MESSAGES } from '../../src/errors.js';
import { renderError } from '../../src/http/render-error.js';
import { validatedApp } from '../../src/http/validated-app.js';
import { invalidAnswer, validationHook } from '../../src/http/validation-hook.js';

/**
 * `validatedApp` must validate exactly as `@hono/zod-openapi` does (its module comment): the
 * same routes served by both, with the emulator's hook and error renderer, must answer every
 * request alike, status and body, in-process and through a Node server (where the media type
 * gate reads the framing headers instead of the body).
 */
const Body = z.object({ name: z.string().min(2), count: z.number().int().optional() });
const routes = [
  createRoute({
    method: 'post',
    path: '/things/{thing_id}',
    request: {
      params: z.object({ thing_id: z.string().regex(/^th_[a-z]+$/) }),
      query: z.object({
        limit: z.coerce.number().int().min(1).max(10).default(5),
        tag: z.union([z.string(), z.array(z.string())]).optional(),
      }),
      headers: z.object({ 'X-Thing-Version': z.enum(['1', '2']).optional() }),
      body: { content: { 'application/json': { schema: Body } }, required: true },
    },
    responses: { 200: { description: 'echo' } },
  }),
  createRoute({
    method: 'post',
    path: '/optional/{thing_id}',
    request: {
      params: z.object({ thing_id: z.string().min(3) }),
      body: { content: { 'application/json': { schema: Body.partial() } } },
    },
    responses: { 200: { description: 'echo' } },
  }),
  createRoute({
    method: 'get',
    path: '/list',
    request: {
      query: z.object({ status: z.enum(['a', 'b']).optional(), after: z.string().optional() }),
    },
    responses: { 200: { description: 'echo' } },
  }),
  createRoute({
    method: 'get',
    path: '/raw',
    // Every parameter as the query parser split it, unknown names included.
    request: { query: z.looseObject({ a: z.union([z.string(), z.array(z.string())]).optional() }) },
    responses: { 200: { description: 'echo' } },
  }),
] as const;

/** Answers what validation handed the handler, so any difference in it shows. */
function echo(c: Context<AppEnv>) {
  const valid = c.req.valid as (target: string) => unknown;
  const parts = ['param', 'query', 'header', 'json'].map((t) => [t, safe(() => valid(t))]);
  return c.json(Object.fromEntries(parts), 200);
}
function safe(read: () => unknown): unknown {
  try {
    return read() ?? null;
  } catch {
    return null;
  }
}

function build(app: OpenAPIHono<AppEnv>): OpenAPIHono<AppEnv> {
  app.onError(renderError);
  for (const route of routes) app.openapi(route as never, echo as never);
  return app;
}

const stock = build(new OpenAPIHono<AppEnv>({ defaultHook: validationHook }));
const ours = build(validatedApp<AppEnv>(invalidAnswer));

interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent chunked (no Content-Length) through the Node server. */
  chunked?: boolean;
}

const json = { 'content-type': 'application/json' };
const CALLS: Call[] = [
  { method: 'POST', path: '/things/th_abc', headers: json, body: '{"name":"ok"}' },
  {
    method: 'POST',
    path: '/things/th_abc?limit=3&tag=x&tag=y',
    headers: json,
    body: '{"name":"ok","count":2}',
  },
  { method: 'POST', path: '/things/th_abc?limit=0', headers: json, body: '{"name":"ok"}' },
  { method: 'POST', path: '/things/th_abc?limit=abc', headers: json, body: '{"name":"ok"}' },
  { method: 'POST', path: '/things/TH_1', headers: json, body: '{"name":"ok"}' },
  {
    method: 'POST',
    path: '/things/th_abc',
    headers: { ...json, 'x-thing-version': '2' },
    body: '{"name":"ok"}',
  },
  {
    method: 'POST',
    path: '/things/th_abc',
    headers: { ...json, 'X-THING-VERSION': '3' },
    body: '{"name":"ok"}',
  },
  { method: 'POST', path: '/things/th_abc', headers: json, body: '{"name":"x"}' },
  { method: 'POST', path: '/things/th_abc', headers: json, body: '{"name":' },
  { method: 'POST', path: '/things/th_abc', headers: json, body: '' },
  { method: 'POST', path: '/things/th_abc', headers: json },
  {
    method: 'POST',
    path: '/things/th_abc',
    headers: json,
    body: '{"name":"chunk"}',
    chunked: true,
  },
  {
    method: 'POST',
    path: '/things/th_abc',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: '{"name":"ok"}',
  },
  {
    method: 'POST',
    path: '/things/th_abc',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: '{"name":"ok"}',
  },
  {
    method: 'POST',
    path: '/things/th_abc',
    headers: { 'content-type': 'text/plain' },
    body: '{"name":"ok"}',
  },
  {
    method: 'POST',
    path: '/things/th_abc',
    headers: { 'content-type': '' },
    body: '{"name":"ok"}',
  },
  { method: 'POST', path: '/things/th_abc', body: '{"name":"ok"}' },
  { method: 'POST', path: '/things/th_abc', body: '{"name":"ok"}', chunked: true },
  { method: 'POST', path: '/things/th_abc' },
  { method: 'POST', path: '/optional/abcd' },
  { method: 'POST', path: '/optional/ab' },
  { method: 'POST', path: '/optional/abcd', headers: json, body: '{"count":1}' },
  { method: 'POST', path: '/optional/abcd', headers: json, body: '{"count":"1"}' },
  { method: 'POST', path: '/optional/abcd', body: '{"count":1}' },
  { method: 'POST', path: '/optional/abcd', headers: { 'content-type': 'text/csv' }, body: 'a,b' },
  { method: 'POST', path: '/optional/abcd', body: '', chunked: true },
  { method: 'GET', path: '/list' },
  { method: 'GET', path: '/list?status=a&after=x' },
  { method: 'GET', path: '/list?status=c' },
  { method: 'GET', path: '/list?status=a&status=b' },
  { method: 'GET', path: '/list?after=%E2%9C%93&unknown=1' },
  // How the query string is split into names and values (http/query-value.ts).
  ...[
    'a=1&&b=2',
    '=x&a=y',
    'a',
    'a=',
    'a=1&a=2&b=3&a=4',
    'a=x=y',
    'a=x+y&b=1',
    'a=%E2%9C%93',
    'a=%zz',
    'a%20b=1',
    '__proto__=1&a=p',
    'constructor=1&toString=2',
    '&a=t&',
    '',
    'b=1&2=x&1=y&a=z',
  ].map((query) => ({ method: 'GET' as const, path: `/raw?${query}` })),
];

async function viaRequest(app: OpenAPIHono<AppEnv>, call: Call) {
  const res = await app.request(call.path, {
    method: call.method,
    headers: call.headers ?? {},
    ...(call.body === undefined ? {} : { body: call.body }),
  });
  return { status: res.status, body: await res.text() };
}

const servers: { stock: string; ours: string; close: Server[] } = {
  stock: '',
  ours: '',
  close: [],
};

function listen(app: OpenAPIHono<AppEnv>): Promise<string> {
  const server = createServer(getRequestListener(app.fetch));
  servers.close.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }),
  );
}

beforeAll(async () => {
  servers.stock = await listen(stock);
  servers.ours = await listen(ours);
});
afterAll(() => {
  for (const s of servers.close) s.close();
});

/** One call over a fresh connection, with a Content-Length or chunked as the call says. */
function viaNode(base: string, call: Call): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...(call.headers ?? {}) };
    if (call.body !== undefined && !call.chunked)
      headers['content-length'] = Buffer.byteLength(call.body);
    const req = httpRequest(
      `${base}${call.path}`,
      { method: call.method, headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    if (call.body !== undefined) req.write(call.body);
    req.end();
  });
}

test.each(
  CALLS.map(
    (call) =>
      [
        `${call.method} ${call.path} ${JSON.stringify(call.headers ?? {})} ${call.chunked ? 'chunked ' : ''}${JSON.stringify(call.body ?? null)}`,
        call,
      ] as const,
  ),
)('answers %s as @hono/zod-openapi does', async (_name, call) => {
  const expected = await viaRequest(stock, call);
  expect(await viaRequest(ours, call)).toEqual(expected);
  const overNode = await viaNode(servers.stock, call);
  expect(await viaNode(servers.ours, call)).toEqual(overNode);
});

test('the matrix covers successes, field errors, malformed JSON and refused media types', async () => {
  const seen = new Set<string>();
  for (const call of CALLS) {
    const { status, body } = await viaRequest(ours, call);
    if (status === 200) seen.add('ok');
    else if (body.includes(MESSAGES.notJson)) seen.add('media type');
    else if (body.includes('Malformed JSON')) seen.add('malformed');
    else if (JSON.parse(body).error.param) seen.add('field');
  }
  expect([...seen].sort()).toEqual(['field', 'malformed', 'media type', 'ok']);
});

test('routes are registered in the OpenAPI registry as openapi() registers them', () => {
  const paths = (app: OpenAPIHono<AppEnv>) =>
    app.getOpenAPIDocument({ openapi: '3.0.0', info: { title: 't', version: '1' } });
  expect(paths(ours)).toEqual(paths(stock));
});
