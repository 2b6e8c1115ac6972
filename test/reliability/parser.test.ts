import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createNodeServer } from '../../src/http/node-server.js';
import { createEmulator } from '../../src/tools/emulator.js';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { expectEnvelope, rawRequest } from './raw-http.js';

// Issue 9 item 5: requests Node's HTTP parser (or the adapter) rejects answer the standard error
// envelope, not an empty body.

let emu: RunningEmulator;
let port: number;
beforeAll(async () => {
  emu = await startEmulator();
  port = Number(new URL(emu.baseUrl).port);
});
afterAll(() => emu.stop());

const host = 'Host: 127.0.0.1\r\n';
const key = 'Authorization: Bearer svc_test_emulator_default\r\n';

test('a 100 KB header answers 431 request_header_too_large', async () => {
  const answer = await rawRequest(
    port,
    `GET /v1/keys/me HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(100_000)}\r\n\r\n`,
  );
  expectEnvelope(answer, 431, 'request_header_too_large');
});

test('a 1 MB URL answers 431 request_header_too_large', async () => {
  const answer = await rawRequest(port, `GET /v1/${'a'.repeat(1_000_000)} HTTP/1.1\r\n${host}\r\n`);
  expectEnvelope(answer, 431, 'request_header_too_large');
});

test('HTTP/1.1 without Host answers 400 request_malformed', async () => {
  const answer = await rawRequest(port, 'GET /v1/keys/me HTTP/1.1\r\n\r\n');
  expectEnvelope(answer, 400, 'request_malformed');
});

test('invalid UTF-8 bytes in the path answer 400 request_malformed', async () => {
  const answer = await rawRequest(
    port,
    Buffer.concat([
      Buffer.from('GET /v1/'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(` HTTP/1.1\r\n${host}\r\n`),
    ]),
  );
  expectEnvelope(answer, 400, 'request_malformed');
});

test('percent-encoded invalid UTF-8 in the path answers the 404 envelope', async () => {
  const answer = await rawRequest(
    port,
    `GET /v1/keys/%FF%FE HTTP/1.1\r\n${host}${key}Connection: close\r\n\r\n`,
  );
  expect(answer.status).toBe(404);
  expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'resource_not_found' } });
});

test('a Host the adapter cannot build a URL from answers 400 request_malformed', async () => {
  const answer = await rawRequest(port, 'GET /v1/keys/me HTTP/1.1\r\nHost: [bad\r\n\r\n');
  expectEnvelope(answer, 400, 'request_malformed');
});

test('Content-Length with Transfer-Encoding answers 400 request_malformed', async () => {
  const answer = await rawRequest(
    port,
    `POST /v1/evaluations HTTP/1.1\r\n${host}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  );
  expectEnvelope(answer, 400, 'request_malformed');
});

test('an unknown method answers 400 request_malformed', async () => {
  const answer = await rawRequest(port, `FROBNICATE /v1/keys/me HTTP/1.1\r\n${host}\r\n`);
  expectEnvelope(answer, 400, 'request_malformed');
});

test('garbage instead of a request line answers 400 request_malformed', async () => {
  const answer = await rawRequest(port, 'hello there\r\n\r\n');
  expectEnvelope(answer, 400, 'request_malformed');
});

test('a client too slow to send its headers answers 408 request_timeout', async () => {
  const emulator = createEmulator({ seed: '0', clock: 'manual' });
  // Short timeouts, checked often, for this test only (Node's defaults are 60 s and 300 s).
  const server = createNodeServer(emulator.app, emulator.deps, {
    headersTimeout: 200,
    requestTimeout: 300,
    connectionsCheckingInterval: 50,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port: slowPort } = server.address() as AddressInfo;
    const answer = await rawRequest(slowPort, `GET /v1/keys/me HTTP/1.1\r\n${host}`, true);
    expectEnvelope(answer, 408, 'request_timeout');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    emulator.close();
  }
});
