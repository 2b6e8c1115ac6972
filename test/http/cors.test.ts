import { expect, test } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { expectError, testEmulator } from '../helpers.js';

const PAGE = 'http://localhost:5173';

/** The preflight a browser sends before `fetch('/v1/...', {headers: {Authorization}})`. */
function preflight(origin = PAGE) {
  return {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,idempotency-key',
    },
  };
}

async function read(res: Response) {
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

/** A list header's entries, however they are separated (`a, b` or `a,b`). */
function entries(headers: Headers, name: string): string[] {
  return (headers.get(name) ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
}

/** The names of the `Access-Control-*` headers of an answer. */
function corsHeaders(headers: Headers): string[] {
  return [...headers.keys()].filter((k) => k.startsWith('access-control-'));
}

const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Service-Version',
  'X-Emulator-Fault',
  'Range',
  'If-Range',
  'If-None-Match',
];
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'Retry-After',
  'Service-Version',
  'Idempotent-Replayed',
  'Content-Disposition',
  'Content-Range',
  'Accept-Ranges',
  'ETag',
];

test('without --cors a preflight answers 401 and no answer carries CORS headers', async () => {
  const { app, api } = testEmulator();
  const res = await read(await app.request('/v1/augmentations', preflight()));
  expectError(res, 401, 'unauthenticated');
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
  const me = await api('GET', '/v1/keys/me', { headers: { origin: PAGE } });
  expect(me.status).toBe(200);
  expect(me.headers.get('access-control-allow-origin')).toBeNull();
});

test('with --cors a listed origin preflight answers 204 before authentication, and is not journaled', async () => {
  const { app, control } = testEmulator({ cors: [PAGE] });
  const res = await app.request('/v1/augmentations', preflight());
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
  expect(entries(res.headers, 'vary')).toContain('Origin');
  expect(entries(res.headers, 'access-control-allow-methods')).toEqual(
    expect.arrayContaining(ALLOWED_METHODS),
  );
  expect(entries(res.headers, 'access-control-allow-methods')).toHaveLength(ALLOWED_METHODS.length);
  expect(entries(res.headers, 'access-control-allow-headers').sort()).toEqual(
    [...ALLOWED_HEADERS].sort(),
  );
  expect(res.headers.get('access-control-max-age')).toBe('600');
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  expect(res.headers.get('x-request-id')).toBeNull();
  expect(await res.text()).toBe('');
  const journal = await control('GET', '/requests');
  expect(journal.data).toEqual([]);
});

test('any OPTIONS from a listed origin is answered as a preflight, as hono/cors answers it', async () => {
  const { app, control } = testEmulator({ cors: [PAGE] });
  const res = await app.request('/v1/keys/me', { method: 'OPTIONS', headers: { origin: PAGE } });
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
  expect(res.headers.get('access-control-max-age')).toBe('600');
  expect((await control('GET', '/requests')).data).toEqual([]);
});

test('answers to a listed origin carry Allow-Origin, Vary and the exposed headers, errors too', async () => {
  const { api } = testEmulator({ cors: [PAGE] });
  const origin = { origin: PAGE };
  const me = await api('GET', '/v1/keys/me', { headers: origin });
  const unauthenticated = await api('GET', '/v1/keys/me', { headers: origin, secret: null });
  const limited = await api('GET', '/v1/keys/me', {
    headers: { ...origin, 'x-emulator-fault': '429;retry-after=7' },
  });
  expect(me.status).toBe(200);
  expectError(unauthenticated, 401, 'unauthenticated');
  expectError(limited, 429, 'rate_limit_exceeded');
  expect(limited.headers.get('retry-after')).toBe('7');
  for (const res of [me, unauthenticated, limited]) {
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(entries(res.headers, 'vary')).toEqual(['Origin']);
    expect(entries(res.headers, 'access-control-expose-headers').sort()).toEqual(
      [...EXPOSED_HEADERS].sort(),
    );
    expect(corsHeaders(res.headers).sort()).toEqual([
      'access-control-allow-origin',
      'access-control-expose-headers',
    ]);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  }
});

test('an origin not listed gets no CORS headers and the answer it gets without --cors', async () => {
  const { app, api } = testEmulator({ cors: [PAGE, 'https://sdk.example.test'] });
  const other = 'http://localhost:5174';
  const res = await read(await app.request('/v1/keys/me', preflight(other)));
  expectError(res, 401, 'unauthenticated');
  expect(corsHeaders(res.headers)).toEqual([]);
  expect(res.headers.get('vary')).toBeNull();
  const me = await api('GET', '/v1/keys/me', { headers: { origin: other } });
  expect(me.status).toBe(200);
  expect(corsHeaders(me.headers)).toEqual([]);
  expect(me.headers.get('vary')).toBeNull();
  const listed = await api('GET', '/v1/keys/me', {
    headers: { origin: 'https://sdk.example.test' },
  });
  expect(listed.headers.get('access-control-allow-origin')).toBe('https://sdk.example.test');
});

test('--cors * admits any origin; /_control still follows --control-allow-origin only', async () => {
  const { app, api } = testEmulator({ cors: ['*'] });
  const any = 'https://anywhere.example.test';
  const res = await app.request('/v1/keys/me', preflight(any));
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe(any);
  const me = await api('GET', '/v1/keys/me', { headers: { origin: any } });
  expect(me.headers.get('access-control-allow-origin')).toBe(any);
  expect(entries(me.headers, 'vary')).toEqual(['Origin']);
  // A request without Origin is no CORS request: it gets none of it.
  const { origin: _, ...headers } = preflight(any).headers;
  const bare = await read(await app.request('/v1/keys/me', { method: 'OPTIONS', headers }));
  expectError(bare, 401, 'unauthenticated');
  expect(corsHeaders(bare.headers)).toEqual([]);
  const reset = await read(
    await app.request('/_control/reset', {
      method: 'POST',
      headers: { origin: any, host: '127.0.0.1:8710' },
    }),
  );
  expectError(reset, 403, 'cross_origin_forbidden');
  expect(reset.headers.get('access-control-allow-origin')).toBeNull();
});

test('the signed download and /openapi.json answer a listed origin too', async () => {
  const { app } = testEmulator({ cors: [PAGE] });
  const document = await app.request('/openapi.json', { headers: { origin: PAGE } });
  expect(document.status).toBe(200);
  expect(document.headers.get('access-control-allow-origin')).toBe(PAGE);
  const download = await app.request('/_downloads/unknown', { headers: { origin: PAGE } });
  expect(download.status).toBeGreaterThanOrEqual(400);
  expect(download.headers.get('access-control-allow-origin')).toBe(PAGE);
  expect(download.headers.get('access-control-expose-headers')).toContain('Content-Disposition');
});

test('--cors and EMULATOR_CORS take origins like --control-allow-origin does', () => {
  expect(parseConfig([], {}).cors).toEqual([]);
  expect(parseConfig(['--cors', 'http://localhost:5173/, HTTPS://A.test'], {}).cors).toEqual([
    'http://localhost:5173',
    'https://a.test',
  ]);
  expect(parseConfig([], { EMULATOR_CORS: '*' }).cors).toEqual(['*']);
  expect(() => parseConfig(['--cors', 'localhost:5173'], {})).toThrow(
    /Invalid --cors \(or EMULATOR_CORS\) 'localhost:5173': expected origins/,
  );
});
