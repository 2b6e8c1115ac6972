/**
 * A client that pipelines and never reads holds a bounded amount of the server (issue 27 item 2):
 * once its unsent answers fill the socket, the server stops reading its requests (Node's own
 * output backpressure, which nothing here goes around), and goes on when the client reads.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
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
