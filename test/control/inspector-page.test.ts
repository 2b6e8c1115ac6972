/**
 * `/_control/ui`, the inspector's page and files (issue 30): served by the emulator itself with no
 * CDN, holding no data (so they open without the control token, as /_control/docs does), under the
 * same Host check as every control route, and every file they load is served.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { expect, test } from 'vitest';
import { testEmulator } from '../helpers.js';

const UI_DIR = new URL('../../src/tools/inspector/ui/', import.meta.url);
const files = readdirSync(UI_DIR);

test('GET /_control/ui is the page, with a policy that loads only its own files', async () => {
  const { app } = testEmulator();
  const res = await app.request('/_control/ui');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  const html = await res.text();
  expect(html).toContain('/_control/ui/app.js');
  // The page is a shell: the world's data comes from control calls, never inside it.
  expect(html).not.toContain('acct_');
  expect((await app.request('/_control/ui/')).headers.get('location')).toBe('/_control/ui');
});

test('every file the page and its modules load is served with its type, and nothing else', async () => {
  const { app } = testEmulator();
  const loaded = new Set<string>();
  for (const name of files) {
    const text = readFileSync(new URL(name, UI_DIR), 'utf8');
    for (const m of text.matchAll(/\/_control\/ui\/([\w.-]+)|from '\.\/([\w.-]+)'/g))
      loaded.add(m[1] ?? m[2]!);
    // Offline: no file names another site.
    expect(text, name).not.toMatch(/(?:src|href)="https?:|from 'https?:|url\(https?:/);
  }
  for (const name of loaded) {
    expect(files, name).toContain(name);
    const res = await app.request(`/_control/ui/${name}`);
    expect(res.status, name).toBe(200);
    expect(res.headers.get('content-type'), name).toMatch(/^text\/(javascript|css|html)/);
  }
  const unknown = await app.request('/_control/ui/secrets.json');
  expect(unknown.status).toBe(404);
  expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe(
    'resource_not_found',
  );
});

test('every browser module parses as an ES module (one that does not stops the whole page)', () => {
  for (const name of files.filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(new URL(name, UI_DIR), 'utf8');
    expect(
      () => transformSync(code, { format: 'esm', loader: 'js', target: 'es2022' }),
      name,
    ).not.toThrow();
  }
});

test('with --control-token the page and its files open without it; the data behind them does not', async () => {
  const { app } = testEmulator({ controlToken: 'sesame' });
  expect((await app.request('/_control/ui')).status).toBe(200);
  expect((await app.request('/_control/ui/api.js')).status).toBe(200);
  expect((await app.request('/_control/accounts')).status).toBe(401);
  const withToken = await app.request('/_control/accounts', {
    headers: { 'x-control-token': 'sesame' },
  });
  expect(withToken.status).toBe(200);
});

test('the page answers only the hosts /_control answers, and is gone with --no-control', async () => {
  const { app } = testEmulator();
  const rebound = await app.request('/_control/ui', { headers: { host: 'evil.example:8710' } });
  expect(rebound.status).toBe(403);
  const foreign = await app.request('/_control/accounts', {
    headers: { origin: 'http://evil.example' },
  });
  expect(foreign.status).toBe(403);
  expect((await testEmulator({ control: false }).app.request('/_control/ui')).status).toBe(404);
});
