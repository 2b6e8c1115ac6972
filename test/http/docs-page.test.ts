import { expect, test } from 'vitest';
import { testEmulator } from '../helpers.js';

test('GET /docs serves a Swagger UI page of /openapi.json that loads its assets from this server', async () => {
  const { app } = testEmulator();
  const res = await app.request('/docs');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html).toContain('<title>svc-emulator: Robot Policy Platform API</title>');
  expect(html).toContain('"url":"/openapi.json"');
  const assets = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
  expect(assets).toEqual([
    '/docs/assets/swagger-ui-dist/swagger-ui.css',
    '/docs/assets/swagger-ui-dist/swagger-ui-bundle.js',
  ]);
  const css = await app.request(assets[0]!);
  expect(css.status).toBe(200);
  expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  const js = await app.request(assets[1]!);
  expect(js.status).toBe(200);
  expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(await js.text()).toContain('SwaggerUIBundle');
});

test('GET /_control/docs serves the page of the control document', async () => {
  const { app } = testEmulator();
  const res = await app.request('/_control/docs');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html).toContain('<title>svc-emulator control API</title>');
  expect(html).toContain('"url":"/_control/openapi.json"');
});

test('/docs is served with --strict; /_control/docs is gone with --no-control', async () => {
  const { app } = testEmulator({ strict: true, control: false });
  expect((await app.request('/docs')).status).toBe(200);
  expect((await app.request('/_control/docs')).status).toBe(404);
});

test('an unknown docs asset answers 404 with the error envelope', async () => {
  const { app } = testEmulator();
  const res = await app.request('/docs/assets/swagger-ui-dist/index.html');
  expect(res.status).toBe(404);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('resource_not_found');
});

test('GET / is a page of links, the inspector first, for the hosts /docs answers', async () => {
  const { app } = testEmulator({ strict: true });
  const res = await app.request('/', { headers: { host: 'localhost:8710' } });
  expect(res.status).toBe(200);
  const links = [...(await res.text()).matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
  expect(links).toEqual([
    '/_control/ui',
    '/docs',
    '/_control/docs',
    '/openapi.json',
    '/_control/openapi.json',
  ]);
  const noControl = await testEmulator({ control: false }).app.request('/');
  expect(await noControl.text()).not.toContain('/_control');
  const rebound = await app.request('/', { headers: { host: 'evil.example:8710' } });
  expect(rebound.status).toBe(403);
  expect(((await rebound.json()) as { error: { code: string } }).error.code).toBe(
    'host_not_allowed',
  );
  expect((await app.request('/docs', { headers: { host: 'evil.example:8710' } })).status).toBe(403);
});
