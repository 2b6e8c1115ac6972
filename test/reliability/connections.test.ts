import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/testing/index.js';

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
