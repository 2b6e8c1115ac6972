/**
 * Issue 36 item 8: slow clients (slowloris headers, a body trickled in) are closed by the
 * server's headers and request timeouts while other clients are served; an answer read slowly is
 * bound by neither. Small timeouts, checked often, for this test only (the defaults are 20 s and
 * 60 s: src/http/node-server.ts); how memory and throughput fare is `npm run bench`'s figure.
 */
import type { Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createNodeServer } from '../../src/http/node-server.js';
import { createEmulator, type Emulator } from '../../src/tools/emulator.js';
import { eventually } from '../wait.js';
import { expectEnvelope, type RawAnswer } from './raw-http.js';

const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 600;
const key = 'Authorization: Bearer svc_test_emulator_default\r\n';

let emulator: Emulator;
let server: Server;
let port: number;
beforeAll(async () => {
  emulator = createEmulator({ seed: '0', clock: 'manual' });
  server = createNodeServer(emulator.app, emulator.deps, {
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: 50,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  emulator.close();
});

/**
 * A client that sends `first`, then `more` every 20 ms without end; resolves with what the
 * server sent once it closed the connection.
 */
function trickle(first: string, more: string): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    const timer = setInterval(() => socket.writable && socket.write(more), 20);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(parse(Buffer.concat(chunks).toString('utf8')));
    });
    socket.write(first);
  });
}

function parse(text: string): RawAnswer {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** keys/me again and again until `done` settles; answers the statuses. */
async function keysMeUntil(done: Promise<unknown>): Promise<number[]> {
  let over = false;
  void done.finally(() => {
    over = true;
  });
  const statuses: number[] = [];
  while (!over) {
    const res = await fetch(`http://127.0.0.1:${port}/v1/keys/me`, {
      headers: { authorization: 'Bearer svc_test_emulator_default' },
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

test('slowloris connections are closed by the headers timeout while other clients are served', async () => {
  const slow = Array.from({ length: 20 }, () =>
    trickle('GET /v1/keys/me HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n'),
  );
  const served = keysMeUntil(Promise.all(slow));
  for (const answer of await Promise.all(slow)) expectEnvelope(answer, 408, 'request_timeout');
  const statuses = await served;
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.every((s) => s === 200)).toBe(true);
});

test('a body sent slowly is closed by the request timeout while other clients are served', async () => {
  const head =
    `POST /v1/evaluations HTTP/1.1\r\nHost: 127.0.0.1\r\n${key}` +
    'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"spec":"';
  const logged = vi.spyOn(console, 'error');
  try {
    const slow = Array.from({ length: 20 }, () => trickle(head, 'a'.repeat(10)));
    const served = keysMeUntil(Promise.all(slow));
    for (const answer of await Promise.all(slow)) expectEnvelope(answer, 408, 'request_timeout');
    expect((await served).every((s) => s === 200)).toBe(true);
    // The app's read of each body cut short is journaled as the client left it, not logged as
    // an unexpected error (src/http/render-error.ts).
    const cut = await eventually(async () => {
      const found = emulator.deps.journal.filter({ method: 'POST', operation: 'createEvaluation' });
      return found.length === 20 ? found : undefined;
    }, 'the 20 bodies cut short, journaled');
    expect(cut.map((e) => [e.status, e.code, e.client_closed])).toEqual(
      Array(20).fill([400, 'request_malformed', true]),
    );
    expect(logged).not.toHaveBeenCalled();
  } finally {
    logged.mockRestore();
  }
});

test('a request answered before its body came is closed at the timeout without a 408 after the answer', async () => {
  // No key: answered 401 at once; the body (small enough to be drained) never ends.
  const head =
    'POST /v1/evaluations HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
    'Content-Type: text/plain\r\nContent-Length: 1000\r\n\r\n';
  const text = await new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    const timer = setInterval(() => socket.writable && socket.write('a'), 20);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(head);
  });
  expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 401']);
});

test('a connection that sends nothing is answered 408 and closed', async () => {
  const answer = await new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  expectEnvelope(parse(answer), 408, 'request_timeout');
});

test('an answer read slowly, well past both timeouts, arrives whole', async () => {
  const text = await new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.once('data', (c: Buffer) => {
      chunks.push(c);
      socket.pause();
      setTimeout(() => socket.resume(), 3 * REQUEST_TIMEOUT_MS);
      socket.on('data', (more: Buffer) => chunks.push(more));
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end('GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  });
  const answer = parse(text);
  expect(answer.status).toBe(200);
  expect(Buffer.byteLength(answer.body)).toBe(Number(answer.headers['content-length']));
  expect(JSON.parse(answer.body)).toHaveProperty('openapi');
});
