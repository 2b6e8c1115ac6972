/**
 * A client that pipelines and never reads holds a bounded amount of the server (issue 27 item 2,
 * issue 36): once its unsent answers fill the socket, or its parsed requests wait for them, the
 * server stops reading its requests, and goes on when the client reads.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { IN_FLIGHT_MAX, WAITING_MAX } from '../../src/http/backpressure.js';
import { createNodeServer } from '../../src/http/node-server.js';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { eventually } from '../wait.js';

let emu: RunningEmulator;
let secret: string;
beforeAll(async () => {
  emu = await startEmulator();
  const account = await emu.control.newAccount();
  secret = account.key.secret;
  // 100 runs of about 10 KB each: every page of the list answers about 1 MB.
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${account.apiUrl}/evaluations`, {
      method: 'POST',
      headers: { ...account.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ spec: { path: `s/${i}`, name: 'n', note: 'x'.repeat(10_000) } }),
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => emu.stop());

// Enough to show the stall (it comes after a few answers, under 40) and the recovery; more only
// costs CPU, 1 MB of JSON an answer.
const PIPELINED = 100;

/** How many of the list requests the journal has: the ones the server has answered. */
async function answered(): Promise<number> {
  const filter = { route: '/v1/evaluations', method: 'GET', limit: 1000 };
  return (await emu.control.listRequests(filter)).data.length;
}

/** Once the server has answered some: how many, when 200 ms pass without another. */
async function settled(): Promise<number> {
  let last = await eventually(async () => ((await answered()) > 0 ? answered() : undefined), 'one');
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await answered();
    if (now === last) return now;
    last = now;
  }
}

test('100 pipelined 1 MB answers: the server stops reading a client that does not read', async () => {
  const { port } = new URL(emu.baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  const request = `GET /v1/evaluations?limit=100 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${secret}\r\n\r\n`;
  socket.write(request.repeat(PIPELINED));

  // Not reading: a few answers fill the socket's buffers, and the server reads no further.
  const whileStalled = await settled();
  expect(whileStalled).toBeGreaterThan(0);
  expect(whileStalled).toBeLessThan(40);

  // Reading: every request is answered, in order.
  let bytes = 0;
  socket.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  socket.resume();
  await eventually(async () => ((await answered()) >= PIPELINED ? true : undefined), 'all');
  expect(await answered()).toBe(PIPELINED);
  expect(bytes).toBeGreaterThan(PIPELINED * 900_000);
  socket.destroy();
});

test('100,000 small pipelined requests, no answer read: the server parses at most one read beyond what it answered', async () => {
  // A server of its own over the same emulator, to count what Node's parser hands it.
  const server = createNodeServer(emu.emulator.app, emu.emulator.deps);
  let parsed = 0;
  let finished = 0;
  server.on('request', (_incoming: IncomingMessage, outgoing: ServerResponse) => {
    parsed++;
    outgoing.once('finish', () => finished++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  // Answers of about 600 B: the 8 the app makes at once stay under the unsent bytes at which
  // Node stops reading on its own (its high-water mark); 100,000 are more than the kernel takes.
  const request = `GET /v1/keys/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${secret}\r\n\r\n`;
  const count = 100_000;
  socket.write(request.repeat(count));

  // Once the answers stop leaving: the requests parsed and not answered are the few the app is
  // answering, those waiting, and the rest of one read (64 KiB). Before, it parsed all 100,000.
  let last = -1;
  while (parsed !== last) {
    last = parsed;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  expect(parsed).toBeLessThan(count);
  const oneRead = Math.ceil((64 * 1024) / request.length);
  expect(parsed - finished).toBeLessThanOrEqual(IN_FLIGHT_MAX + WAITING_MAX + oneRead);
  socket.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
