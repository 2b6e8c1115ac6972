import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { rawExchange } from './raw-http.js';

// Issue 9 item 1: an answer given before the request body was read must leave Node's own pooled
// `fetch` (undici) working; before, its next request failed with "other side closed".

let emu: RunningEmulator;
let key: Record<string, string>;
beforeAll(async () => {
  emu = await startEmulator();
  key = (await emu.control.newAccount()).headers as Record<string, string>;
});
afterAll(() => emu.stop());

const TWO_MIB = 2 * 1024 * 1024;
const ROUNDS = 5;

function bigJson(): string {
  return `{"pad":"${'x'.repeat(TWO_MIB)}"}`;
}

/** A 2 MiB body sent chunked (no Content-Length). */
function chunkedBody(): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= TWO_MIB) controller.close();
      else {
        controller.enqueue(chunk);
        sent += chunk.length;
      }
    },
  });
}

/** Then the same client (the global fetch and its pool) goes on working, on kept connections. */
async function followUps(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${emu.baseUrl}/v1/keys/me`, { headers: key });
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).toBe('keep-alive');
    await res.json();
  }
}

async function expectEnvelope(res: Response, status: number, code?: string): Promise<void> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: { code: string; request_id: string } };
  if (code) expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
}

test('413 for a 2 MiB body with Content-Length: the answer arrives and the pool goes on', async () => {
  for (let i = 0; i < ROUNDS; i++) {
    const res = await fetch(`${emu.baseUrl}/v1/evaluations`, {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: bigJson(),
    });
    await expectEnvelope(res, 413, 'request_too_large');
    expect(res.headers.get('connection')).toBe('close');
    await followUps();
  }
});

test('413 for a chunked 2 MiB body: the answer arrives and the pool goes on', async () => {
  for (let i = 0; i < ROUNDS; i++) {
    const res = await fetch(`${emu.baseUrl}/v1/evaluations`, {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: chunkedBody(),
      duplex: 'half',
    } as RequestInit);
    await expectEnvelope(res, 413, 'request_too_large');
    await followUps();
  }
});

// [name, path, headers, status for a small body, status for 2 MiB]: faults answer before the body
// limit, authentication and routing after it (docs/api.md, "Order of checks").
const early: Array<[string, string, Record<string, string>, number, number]> = [
  ['401 (bad key)', '/v1/evaluations', { authorization: 'Bearer svc_test_nope' }, 401, 413],
  ['404 (unknown path)', '/v1/nothing_here', {}, 404, 413],
  ['403 (fault)', '/v1/evaluations', { 'x-emulator-fault': '403' }, 403, 403],
  ['429 (fault)', '/v1/evaluations', { 'x-emulator-fault': '429;retry-after=1' }, 429, 429],
  ['409 (fault)', '/v1/evaluations', { 'x-emulator-fault': '409' }, 409, 409],
  ['502 (fault)', '/v1/evaluations', { 'x-emulator-fault': '502' }, 502, 502],
];

for (const [name, path, headers, small, big] of early) {
  test(`${name} before the body is read, small and 2 MiB bodies: the pool goes on`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      for (const [body, status] of [
        ['{"scenario_id":"x"}', small],
        [bigJson(), big],
      ] as const) {
        const res = await fetch(`${emu.baseUrl}${path}`, {
          method: 'POST',
          headers: { ...key, 'content-type': 'application/json', ...headers },
          body,
        });
        expect(res.status).toBe(status);
        // A small body is drained and the connection kept; 2 MiB closes it.
        expect(res.headers.get('connection')).toBe(body.length < 100 ? 'keep-alive' : 'close');
        await res.text();
        await followUps();
      }
    }
  });
}

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
  try {
    const res = await fetch(`${emu.baseUrl}/v1/keys/me`, { headers: key });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ object: 'api_key' });
  } finally {
    vi.useRealTimers();
  }
});
