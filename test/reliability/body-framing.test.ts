import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { rawRequest } from './raw-http.js';

// Issue 12: over a socket the body checks read the framing headers instead of building a full
// Request. Every framing of a body (none, `Content-Length`, chunked) answers as `app.request()`
// does, where hono's `bodyLimit` still reads the body.

let emu: RunningEmulator;
let auth: string;
let port: number;
beforeAll(async () => {
  emu = await startEmulator();
  auth = (await emu.control.newAccount()).headers.authorization as string;
  port = Number(new URL(emu.baseUrl).port);
});
afterAll(() => emu.stop());

const FRAMINGS: Record<string, (body: string) => string> = {
  'no body': () => '\r\n',
  'Content-Length': (body) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  chunked: (body) =>
    `Transfer-Encoding: chunked\r\n\r\n${body ? `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n` : ''}0\r\n\r\n`,
};

/** The error an answer carries, without its request id (each call has its own). */
function errorOf(text: string): unknown {
  const { error } = JSON.parse(text) as { error: Record<string, unknown> };
  return { ...error, request_id: undefined };
}

async function overSocket(path: string, type: string | null, framing: string, body: string) {
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: ${auth}\r\n` +
    (type ? `Content-Type: ${type}\r\n` : '');
  const answer = await rawRequest(
    port,
    head + FRAMINGS[framing]!(framing === 'no body' ? '' : body),
  );
  return { status: answer.status, error: errorOf(answer.body) };
}

async function inProcess(path: string, type: string | null, body: string) {
  const headers: Record<string, string> = { authorization: auth };
  if (type) headers['content-type'] = type;
  const res = await emu.emulator.app.request(path, {
    method: 'POST',
    headers,
    ...(body ? { body } : {}),
  });
  return { status: res.status, error: errorOf(await res.text()) };
}

const CASES = [
  { path: '/v1/evaluations/eval_01KA0000000000000000000000/resume', type: null, body: '' },
  {
    path: '/v1/evaluations/eval_01KA0000000000000000000000/resume',
    type: 'application/json',
    body: '{}',
  },
  { path: '/v1/evaluations', type: 'application/json', body: '' },
  { path: '/v1/evaluations', type: 'application/json', body: '{"spec":' },
  { path: '/v1/evaluations', type: 'application/json', body: '{}' },
  { path: '/v1/evaluations', type: 'text/plain', body: 'hello' },
];

for (const framing of Object.keys(FRAMINGS)) {
  for (const c of CASES) {
    if (framing === 'no body' && c.body) continue;
    test(`POST ${c.path} (${c.type ?? 'no type'}, ${framing}, '${c.body}') answers as in process`, async () => {
      const socket = await overSocket(c.path, c.type, framing, c.body);
      expect(socket.status).toBeGreaterThanOrEqual(400);
      expect(socket).toEqual(await inProcess(c.path, c.type, c.body));
    });
  }
}
