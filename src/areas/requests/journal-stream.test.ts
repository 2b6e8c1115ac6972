/**
 * `GET /_control/stream/requests` (issue 30): each journaled call as a server-sent event, with the
 * journal's filters; a client that does not read is cut off at a bound; shutdown ends the stream.
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, testEmulator } from '../../../test/helpers.js';
import { startEmulator } from '../../tools/harness/index.js';
import { STREAM_QUEUE_MAX } from './control-journal-stream.js';

const KEY = { authorization: `Bearer ${DEFAULT_SECRET}` };

/** The events of a stream's text: `[event, data]`. */
function events(text: string): [string, Record<string, unknown>][] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      return [field('event')!, JSON.parse(field('data')!)];
    });
}

/** A stream's text as it arrives: `until(done)` reads on until `done(text so far)` or its end. */
function follow(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  return async (done: (text: string) => boolean) => {
    while (!done(text)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += value;
    }
    return text;
  };
}

test('a call made while a client follows the stream reaches it as a request event, filtered', async () => {
  const running = await startEmulator();
  try {
    const { baseUrl } = running;
    const res = await fetch(`${baseUrl}/_control/stream/requests?status_class=4xx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const until = follow(res.body!);
    await until((t) => t.includes('retry: 1000'));
    await fetch(`${baseUrl}/v1/keys/me`, { headers: KEY });
    const missing = await fetch(`${baseUrl}/v1/evaluations/eval_nope`, { headers: KEY });
    const text = await until((t) => t.includes('event: request'));
    const got = events(text);
    expect(got.map(([event]) => event)).toEqual(['request']);
    expect(got[0]![1]).toMatchObject({
      request_id: missing.headers.get('x-request-id'),
      status: 404,
      account_id: DEFAULT_ACCOUNT,
      path: '/v1/evaluations/eval_nope',
    });
    // Stopping ends the stream (the harness then drops the connection) instead of waiting on it.
    await running.stop();
    await until(() => false).catch(() => '');
  } finally {
    await running.stop().catch(() => {});
  }
});

test(`a client ${STREAM_QUEUE_MAX} events behind is sent overflow and cut off`, async () => {
  const emu = testEmulator();
  const res = await emu.app.request('/_control/stream/requests');
  const { journal } = emu.emulator.deps;
  const entry = (n: number) => ({
    request_id: `req_${n}`,
    method: 'GET',
    path: '/v1/keys/me',
    route: '/v1/keys/me',
    operation: 'getCurrentKey',
    status: 200,
    code: null,
    account_id: DEFAULT_ACCOUNT,
    key_id: null,
    fault_id: null,
    idempotent_replayed: false,
    at_ms: 0,
    wall_ms: 0,
    duration_ms: 0,
    idempotency_key: null,
    body_digest: null,
    retry_after: null,
    fault_after: false,
    work_status: null,
    hang_ms: null,
    client_closed: false,
    resource_id: null,
  });
  for (let n = 0; n < STREAM_QUEUE_MAX + 10; n++) journal.record(entry(n));
  const got = events(await new Response(res.body).text());
  expect(got.at(-1)).toEqual(['overflow', { queued: STREAM_QUEUE_MAX }]);
  expect(got.length).toBeLessThanOrEqual(STREAM_QUEUE_MAX + 1);
  // Cut off: later calls are not queued for it.
  expect((journal as unknown as { listeners: Set<unknown> }).listeners.size).toBe(0);
});

test('a reset sends removed; closing the emulator ends every stream', async () => {
  const emu = testEmulator();
  await emu.api('GET', '/v1/keys/me');
  const res = await emu.app.request('/_control/stream/requests');
  await emu.control('POST', '/reset');
  emu.emulator.close();
  const got = events(await new Response(res.body).text());
  expect(got.map(([event]) => event)).toEqual(['removed']);
});

test('with --control-token the stream needs X-Control-Token like every control route', async () => {
  const emu = testEmulator({ controlToken: 'sesame' });
  expect((await emu.app.request('/_control/stream/requests')).status).toBe(401);
  const ok = await emu.app.request('/_control/stream/requests', {
    headers: { 'x-control-token': 'sesame' },
  });
  expect(ok.status).toBe(200);
  await ok.body?.cancel();
  emu.emulator.close();
});
