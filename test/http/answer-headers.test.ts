/**
 * `X-Request-Id` and `Service-Version` on every answer (API document sections 2.1 and 9.3). Served
 * by Node they are set on Node's response, not Hono's (src/core/answer-headers.ts): each goes on
 * the wire once, with the value the call ended with, and the journal's detail and the replay
 * recording show the answer's headers as sent.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseBundle } from '../../src/areas/bundles/bundle-read.js';
import { sentHeaders } from '../../src/core/answer-headers.js';
import { packageVersion } from '../../src/emulator.js';
import { createEmulator } from '../../src/tools/emulator.js';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { rawExchange } from '../reliability/raw-http.js';

const KEY = 'Bearer svc_test_emulator_default';
const LATEST = '2026-09-27';

let emu: RunningEmulator;
let strict: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ bundleRecord: true });
  strict = await startEmulator({ strictVersions: true });
});
afterAll(async () => {
  await emu.stop();
  await strict.stop();
});

/** One request as raw HTTP: every header line as sent, names lower-case. */
async function wire(base: string, head: string[]) {
  const port = Number(new URL(base).port);
  const lines = [...head, 'Host: 127.0.0.1', 'Connection: close'];
  const text = await rawExchange(port, `${lines.join('\r\n')}\r\n\r\n`);
  const [head1 = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head1.split('\r\n');
  const named = (name: string) =>
    headerLines
      .filter((l) => l.toLowerCase().startsWith(`${name}:`))
      .map((l) => l.slice(name.length + 1).trim());
  return { status: Number(statusLine.split(' ')[1]), body, named };
}

test('each answer carries one X-Request-Id and one Service-Version, on success and error', async () => {
  const cases = [
    { head: ['GET /v1/keys/me HTTP/1.1', `Authorization: ${KEY}`], status: 200 },
    { head: ['GET /v1/keys/me HTTP/1.1'], status: 401 },
    { head: ['GET /v1/evaluations/eval_nope HTTP/1.1', `Authorization: ${KEY}`], status: 404 },
    {
      head: ['GET /v1/keys/me HTTP/1.1', `Authorization: ${KEY}`, 'Service-Version: 1999-01-01'],
      status: 400,
    },
    { head: ['GET /nowhere HTTP/1.1'], status: 404 },
  ];
  for (const { head, status } of cases) {
    const res = await wire(emu.baseUrl, head);
    expect(res.status, head[0]).toBe(status);
    const [id, ...more] = res.named('x-request-id');
    expect(id, head[0]).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(more).toEqual([]);
    expect(res.named('service-version')).toEqual([LATEST]);
    expect(res.named('content-type')).toEqual(['application/json']);
    if (status >= 400) expect(JSON.parse(res.body).error.request_id).toBe(id);
  }
});

test('under --strict-versions, a rejected version is answered at the default, once', async () => {
  // 2026-10-12 is served, but not by GET /v1/keys/me (the API document's list for it).
  const res = await wire(strict.baseUrl, [
    'GET /v1/keys/me HTTP/1.1',
    `Authorization: ${KEY}`,
    'Service-Version: 2026-10-12',
  ]);
  expect(res.status).toBe(400);
  expect(JSON.parse(res.body).error.code).toBe('unsupported_version');
  expect(res.named('service-version')).toEqual([LATEST]);
});

test("the journal's detail and the replay recording show the answer's headers as sent", async () => {
  const res = await fetch(`${emu.baseUrl}/v1/keys/me`, { headers: { authorization: KEY } });
  const id = res.headers.get('x-request-id')!;
  const detail = (await (await fetch(`${emu.baseUrl}/_control/requests/${id}`)).json()) as {
    detail: { response: { headers: Record<string, string> } };
  };
  expect(detail.detail.response.headers).toEqual({
    'content-type': 'application/json',
    'service-version': LATEST,
    'x-request-id': id,
  });
  const bytes = Buffer.from(await (await fetch(`${emu.baseUrl}/_control/bundle`)).arrayBuffer());
  const call = parseBundle(bytes, packageVersion()).calls.find(
    (c) => c.method === 'GET' && c.path === '/v1/keys/me' && c.answer.status === 200,
  );
  expect(call?.answer.headers).toEqual([
    ['content-type', 'application/json'],
    ['service-version', LATEST],
    ['x-request-id', 'req_*'],
  ]);
});

test('sentHeaders: Node’s headers under the answer’s own, which win, sorted by name', () => {
  const plain = new Response('{}', { headers: { 'Retry-After': '7', 'content-type': 'x/y' } });
  expect(sentHeaders(plain, ['x-request-id', 'req_1', 'content-type', 'text/plain'])).toEqual([
    'content-type',
    'x/y',
    'retry-after',
    '7',
    'x-request-id',
    'req_1',
  ]);
  expect(sentHeaders(new Response(null), ['service-version', LATEST])).toEqual([
    'service-version',
    LATEST,
  ]);
});

test('served by any other Node server (the adapter alone), answers still carry both, once', async () => {
  const emulator = createEmulator({ seed: '0', clock: 'manual' });
  const server = createServer(getRequestListener(emulator.app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const head of [
      ['GET /v1/keys/me HTTP/1.1', `Authorization: ${KEY}`],
      ['GET /v1/keys/me HTTP/1.1'],
    ]) {
      const res = await wire(base, head);
      expect(res.named('x-request-id')).toEqual([expect.stringMatching(/^req_/)]);
      expect(res.named('service-version')).toEqual([LATEST]);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    emulator.close();
  }
});
