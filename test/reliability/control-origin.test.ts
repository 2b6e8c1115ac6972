import { expect, test } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, expectError, testEmulator } from '../helpers.js';

/** A control call as a browser would send it: with the page's Origin, the emulator's Host. */
async function browserCall(
  app: ReturnType<typeof testEmulator>['app'],
  method: string,
  path: string,
  headers: Record<string, string>,
) {
  const res = await app.request(`/_control${path}`, {
    method,
    headers: { host: '127.0.0.1:8710', ...headers },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

test('a cross-origin POST /_control/reset and key revoke are refused; the world is unchanged', async () => {
  const { app, api, control } = testEmulator();
  const created = {
    json: await control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, { name: 'ci', scopes: [] }),
  };
  const evil = { origin: 'https://evil.example' };
  const revoke = await browserCall(app, 'POST', `/keys/${created.json.id}/revoke`, evil);
  expectError(revoke, 403, 'cross_origin_forbidden');
  const reset = await browserCall(app, 'POST', '/reset', evil);
  expectError(reset, 403, 'cross_origin_forbidden');
  const me = await api('GET', '/v1/keys/me', { secret: created.json.secret });
  expect(me.status).toBe(200);
  const noOrigin = await browserCall(app, 'GET', '/health', { 'sec-fetch-site': 'cross-site' });
  expectError(noOrigin, 403, 'cross_origin_forbidden');
  expect((await control('GET', '/health')).status).toBe('ok');
});

test('same-origin and Origin-less control calls pass', async () => {
  const { app, api, control } = testEmulator();
  const created = {
    json: await control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, { name: 'ci', scopes: [] }),
  };
  const same = await browserCall(app, 'POST', `/keys/${created.json.id}/revoke`, {
    origin: 'http://127.0.0.1:8710',
    'sec-fetch-site': 'same-origin',
  });
  expect(same.status).toBe(200);
  expect(same.json.revoked_at).not.toBeNull();
  const none = await browserCall(app, 'POST', '/reset', {});
  expect(none.status).toBe(200);
  expect((await api('GET', '/v1/keys/me', { secret: DEFAULT_SECRET })).status).toBe(200);
});

test('--control-allow-origin lets the named origins (or *) through', async () => {
  const config = parseConfig(
    ['--control-allow-origin', 'http://localhost:3000/, https://a.test'],
    {},
  );
  expect(config.controlAllowOrigins).toEqual(['http://localhost:3000', 'https://a.test']);
  const { app } = testEmulator({ controlAllowOrigins: config.controlAllowOrigins });
  const allowed = await browserCall(app, 'GET', '/health', { origin: 'http://localhost:3000' });
  expect(allowed.status).toBe(200);
  const other = await browserCall(app, 'GET', '/health', { origin: 'http://localhost:3001' });
  expectError(other, 403, 'cross_origin_forbidden');
  const star = testEmulator({ controlAllowOrigins: ['*'] });
  const any = await browserCall(star.app, 'POST', '/reset', { origin: 'https://evil.example' });
  expect(any.status).toBe(200);
  expect(() => parseConfig(['--control-allow-origin', 'evil'], {})).toThrow(/control-allow-origin/);
});
