/**
 * `{base_url}` (api/base-url.ts) is the origin WHATWG's URL parser gives the request's URL, for
 * every form a Host header or an absolute request target can take.
 */
import type { Context } from 'hono';
import { expect, test } from 'vitest';
import { baseUrl } from '../../src/core/base-url.js';
import { testEmulator } from '../helpers.js';

const URLS = [
  'http://127.0.0.1:4010/v1/evaluations/eval_1/resume',
  'http://localhost/v1/keys/me',
  'http://LocalHost:80/v1/keys/me',
  'https://emulator.test:443/v1/keys/me?x=1',
  'http://[::1]:4010/v1/keys/me',
  'http://user:pw@example.test:8080/v1/keys/me',
  'http://example.test:8080',
  'http://example.test:8080?x=/y',
  'http://example.test:8080#/frag',
  'http://example.test:8080\\v1\\keys\\me',
];

test.each(URLS)('%s: the origin of the whole URL', (url) => {
  const c = { req: { url } } as unknown as Context;
  expect(baseUrl(c)).toBe(new URL(url).origin);
});

test("a run's links name the origin the request reached", async () => {
  const { emulator, api } = testEmulator();
  const res = await emulator.app.request('http://LOCALHOST:80/v1/evaluations', {
    method: 'POST',
    headers: {
      authorization: 'Bearer svc_test_emulator_default',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ spec: { path: 'specs/pick.yaml', name: 'pick' } }),
  });
  const run = (await res.json()) as { id: string; links: { self: string } };
  expect(res.status).toBe(201);
  expect(run.links.self).toBe(`http://localhost/v1/evaluations/${run.id}`);
  expect((await api('GET', `/v1/evaluations/${run.id}`)).json.links.self).toMatch(/^http:\/\//);
  emulator.close();
});
