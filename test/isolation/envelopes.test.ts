/**
 * Every answer the server writes carries the envelope and `X-Request-Id` (issue 27 item 5): Node
 * itself would answer an unknown `Expect` with an empty 417 and close a CONNECT unanswered.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { rawRequest } from '../reliability/raw-http.js';

let emu: RunningEmulator;
let port: number;
beforeAll(async () => {
  emu = await startEmulator();
  port = Number(new URL(emu.baseUrl).port);
});
afterAll(() => emu.stop());

function expectEnvelope(res: { status: number; headers: Record<string, string>; body: string }) {
  const { error } = JSON.parse(res.body);
  expect(error.request_id).toMatch(/^req_/);
  expect(error.request_id).toBe(res.headers['x-request-id']);
  expect(res.headers['service-version']).toBe('2026-09-27');
  return error;
}

test('Expect: teapot answers 417 expectation_failed with the envelope', async () => {
  const res = await rawRequest(
    port,
    'GET /v1/keys/me HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: teapot\r\nConnection: close\r\n\r\n',
  );
  expect(res.status).toBe(417);
  expect(expectEnvelope(res)).toMatchObject({ code: 'expectation_failed' });
});

test('CONNECT answers 405 method_not_allowed with the envelope, then closes', async () => {
  const res = await rawRequest(
    port,
    'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
  );
  expect(res.status).toBe(405);
  expect(expectEnvelope(res)).toMatchObject({ code: 'method_not_allowed' });
});

test('an Upgrade request is answered as an ordinary request, envelope included', async () => {
  const res = await rawRequest(
    port,
    'GET /v1/keys/me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\r\n',
  );
  expect(res.status).toBe(401);
  expect(expectEnvelope(res)).toMatchObject({ code: 'unauthenticated' });
});
