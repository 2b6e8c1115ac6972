/**
 * The recording's store gives back every call as it was given, across chunk boundaries, with
 * nulls, empty strings, UTF-8 of every width and bodies of bytes.
 */
import { expect, test, vi } from 'vitest';
import type { HeldAnswer } from './answer.js';
import { CallStore, type PendingCall, type StoredCall } from './call-store.js';

function call(n: number): { pending: PendingCall; answer: HeldAnswer; stored: StoredCall } {
  const text = ['', 'é', '置き場', '🤖', 'x'.repeat(300_000)][n % 5]!;
  const pending: PendingCall = {
    n,
    mark: 1,
    kind: n % 2 ? 'product' : 'control',
    method: n % 3 ? 'GET' : 'POST',
    path: `/v1/evaluations/${text}?limit=${n}`,
    headers: n % 4 ? ['host', 'localhost', 'x-label', text] : [],
    body: n % 3 ? null : `{"label":"${text}"}`,
    account: n % 2 ? `acct_${n}` : null,
    creates_account: n % 7 ? null : '',
    overlapped: n % 2 === 0,
    startedBefore: n,
    answeredBefore: n - 1,
  };
  const body = [null, 'streamed', new Uint8Array([0, 10, 255, n % 256]), `"${text}"`][n % 4]!;
  const answer: HeldAnswer =
    n % 11 === 0
      ? { status: null, headers: null, body: null, path: '/v1/x' }
      : {
          status: 200 + (n % 300),
          headers: ['content-type', 'application/json'],
          body,
          path: text,
        };
  const { mark: _, ...rest } = pending;
  return { pending, answer, stored: { ...rest, startedAfter: n + 1, answeredAfter: n, answer } };
}

test('every call comes back as stored, in order, over many chunks', () => {
  const store = new CallStore();
  const calls = Array.from({ length: 60 }, (_, i) => call(i + 1));
  for (const { pending, answer } of calls) store.add(pending, pending.n + 1, pending.n, answer);
  expect([...store.calls()]).toEqual(calls.map((c) => c.stored));
  store.clear();
  expect([...store.calls()]).toEqual([]);
});

test('a call longer than a chunk takes about its own length, not three bytes a character', () => {
  const store = new CallStore();
  const { pending, answer } = call(1);
  const body = 'x'.repeat(3 * 1024 * 1024);
  store.add(pending, 0, 0, { ...answer, body });
  expect(store.chunkBytes).toBeLessThan(body.length + 64 * 1024);
  expect([...store.calls()][0]!.answer.body).toBe(body);
});

test('full chunks are compressed, read back the same, and their memory used again', async () => {
  const store = new CallStore();
  const calls = Array.from({ length: 20_000 }, (_, i) => {
    const { pending, answer, stored } = call(5 * i + 1);
    const body = `{"id":"key_${i}","object":"api_key","scopes":["runs:read","runs:write"],"n":${i}}`;
    return {
      pending,
      answer: { ...answer, body },
      stored: { ...stored, answer: { ...stored.answer, body } },
    };
  });
  for (const { pending, answer } of calls) store.add(pending, pending.n + 1, pending.n, answer);
  const written = store.chunkBytes;
  expect(written).toBeGreaterThan(4 * 1024 * 1024);
  // Compression runs on zlib's threads: wait for it, however slow the machine.
  await vi.waitFor(() => expect(store.chunkBytes).toBeLessThan(written / 3), {
    timeout: 60_000,
    interval: 5,
  });
  expect([...store.calls()]).toEqual(calls.map((c) => c.stored));
});
