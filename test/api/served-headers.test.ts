/**
 * `X-Request-Id` and `Service-Version` through a real `@hono/node-server` listener, as
 * `src/main.ts` serves the app: what reaches the wire, not only what `app.request()` returns.
 */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, testEmulator } from '../helpers.js';
import { REQUEST_ID, SPEC } from './support.js';

const emu = testEmulator();
let server: ServerType;
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve(
      { fetch: emu.app.fetch, port: 0, hostname: '127.0.0.1' },
      (info: AddressInfo) => {
        base = `http://127.0.0.1:${info.port}`;
        resolve();
      },
    );
  });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  emu.emulator.close();
});

async function call(method: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { method, headers });
  const text = await res.text();
  return { res, text };
}

const auth = { authorization: `Bearer ${DEFAULT_SECRET}` };

test('a success carries one X-Request-Id and the served Service-Version', async () => {
  const { res } = await call('GET', '/v1/keys/me', { ...auth, 'service-version': '2026-10-12' });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-request-id')).toMatch(REQUEST_ID);
  expect(res.headers.get('service-version')).toBe('2026-10-12');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
});

test.each([
  ['401 without a key', 'GET', '/v1/keys/me', {}, 401],
  ['404 for an unknown route', 'GET', '/v1/nowhere', auth, 404],
  [
    '400 for an unsupported version',
    'GET',
    '/v1/keys/me',
    { ...auth, 'service-version': 'x' },
    400,
  ],
  ['404 on the control API', 'GET', '/_control/accounts/acct_nope', {}, 404],
])(
  'an error (%s) repeats its header request id in the body',
  async (_l, method, path, headers, status) => {
    const { res, text } = await call(method, path, headers);
    expect(res.status).toBe(status);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(REQUEST_ID);
    expect(JSON.parse(text).error.request_id).toBe(id);
    expect(res.headers.get('service-version')).toBe('2026-09-27');
  },
);

test('the archive, GET and HEAD, carries both headers next to its own', async () => {
  const run = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, { spec: SPEC });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 60 });
  for (const method of ['GET', 'HEAD']) {
    const { res } = await call(method, `/v1/evaluations/${run.id}/archive`, auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(res.headers.get('service-version')).toBe('2026-09-27');
  }
});

test('every response gets its own request id', async () => {
  const ids = new Set<string | null>();
  for (let i = 0; i < 5; i++)
    ids.add((await call('GET', '/v1/keys/me', auth)).res.headers.get('x-request-id'));
  expect(ids.size).toBe(5);
});

test('every route the app serves, and a path none serves, answers with both headers once', async () => {
  // The request context is middleware on every path (src/http/pipeline.ts): a route or a path
  // it missed would answer without them.
  const fresh = testEmulator();
  const routes = new Set<string>();
  for (const r of fresh.app.routes) if (r.method !== 'ALL') routes.add(`${r.method} ${r.path}`);
  routes.add('GET /nowhere');
  routes.add('POST /v1/nowhere');
  routes.add('GET /_control/nowhere');
  for (const route of routes) {
    const [method, template] = route.split(' ') as [string, string];
    const path = template.replace(/:\w+/g, 'x');
    const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
    const res = await fresh.app.request(path, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body,
    });
    expect([route, res.headers.get('x-request-id')]).toEqual([
      route,
      expect.stringMatching(REQUEST_ID),
    ]);
    expect([route, res.headers.get('service-version')]).toEqual([route, '2026-09-27']);
    // The journal's event stream does not end: it is let go.
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) await res.body?.cancel();
    else await res.arrayBuffer();
  }
  fresh.emulator.close();
});
