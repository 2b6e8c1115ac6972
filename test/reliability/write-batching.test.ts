import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { batchWrites } from '../../src/http/write-batching.js';
import { type RunningEmulator, startEmulator } from '../../src/testing/index.js';
import { DEFAULT_SECRET } from '../helpers.js';
import { rawExchange } from './raw-http.js';

// Issue 12: answers leave once per turn of the event loop (src/http/write-batching.ts).

const key = { authorization: `Bearer ${DEFAULT_SECRET}` };
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.stop());
afterEach(() => vi.useRealTimers());

test('an answer waits in the socket until the turn ends, then leaves whole', async () => {
  const heldAfterEnd: number[] = [];
  const server = createServer((_req, res) => {
    res.end('x'.repeat(1000));
    heldAfterEnd.push(res.socket?.writableLength ?? -1);
  });
  batchWrites(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(await res.text()).toBe('x'.repeat(1000));
    }
    // Without batching Node writes at `end()` and nothing is left in the socket's buffer.
    expect(heldAfterEnd).toHaveLength(3);
    for (const held of heldAfterEnd) expect(held).toBeGreaterThan(1000);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('pipelined requests on one connection are answered in order, the last closing it', async () => {
  const head = (path: string, close = false) =>
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key.authorization}\r\n` +
    `${close ? 'Connection: close\r\n' : ''}\r\n`;
  const port = Number(new URL(emu.baseUrl).port);
  // Held open: the last request's `Connection: close` is what ends the exchange.
  const text = await rawExchange(
    port,
    head('/v1/keys/me') + head('/v1/nothing-here') + head('/v1/keys/me', true),
    true,
  );
  // Each answer: its head, then exactly Content-Length bytes of body.
  const answers: Array<{ status: number; body: unknown }> = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    const answerHead = rest.slice(0, end);
    const length = Number(/content-length: (\d+)/i.exec(answerHead)?.[1]);
    const body = rest.slice(end + 4, end + 4 + length);
    answers.push({ status: Number(answerHead.split(' ')[1]), body: JSON.parse(body) });
    rest = rest.slice(end + 4 + length);
  }
  expect(answers.map((a) => a.status)).toEqual([200, 404, 200]);
  expect(answers[0]!.body).toMatchObject({ object: 'api_key' });
  expect(answers[1]!.body).toMatchObject({ error: { code: 'resource_not_found' } });
  expect(answers[2]!.body).toEqual(answers[0]!.body);
});

test('answers still leave while the caller fakes the global timers', async () => {
  vi.useFakeTimers();
  const res = await fetch(`${emu.baseUrl}/v1/keys/me`, { headers: key });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ object: 'api_key' });
});
