// Make an SDK's retries provably right: lose answers on purpose, then let the emulator judge how
// the SDK handled them from its own traffic (GET /_control/client_report).
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type FaultResponse, type RunningEmulator, startEmulator } from 'svc-emulator/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.stop()); // undefined if the start failed: its own error is the one shown

/** Stands in for your SDK's request loop: the thing under test. */
async function send(apiUrl: string, headers: Record<string, string>, path: string, body?: unknown) {
  const key = body === undefined ? undefined : randomUUID(); // one key per call, kept on retries
  for (let retry = 0; ; retry++) {
    const res = await fetch(`${apiUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch(() => null); // a dropped connection: retryable too
    const retryable = !res || [429, 502, 503, 504].includes(res.status);
    if (!retryable || retry === 4) return res;
    const retryAfter = Number(res?.headers.get('retry-after'));
    const backoff = 50 * 2 ** retry;
    await sleep(retryAfter ? retryAfter * 1000 : backoff / 2 + (Math.random() * backoff) / 2);
  }
}

test('the SDK retries what it may, keeps its key, honours Retry-After: no finding fails', async () => {
  const account = await emulator.control.newAccount();
  const fault = (operation: string, respond: FaultResponse, times = 1) =>
    emulator.control.createFault({
      match: { account: account.account.id, operation },
      respond,
      times,
    });

  await fault('createEvaluation', { status: 502, after: true }); // the write is done, its answer lost
  const created = await send(account.apiUrl, account.headers, '/evaluations', {
    spec: { path: 'sdk/spec.yaml', name: 'pick' },
  });
  expect(created?.headers.get('idempotent-replayed')).toBe('true'); // the first one, not a second

  await fault('getCurrentKey', { status: 429, retry_after: 1 });
  expect((await send(account.apiUrl, account.headers, '/keys/me'))?.status).toBe(200);
  // Three: the last wait is longer than the first whatever the jitter draws, so backoff is judged
  // (with two, a first wait near its top and a second near its bottom show no growth: not judged).
  await fault('listEvaluations', { status: 503 }, 3);
  expect((await send(account.apiUrl, account.headers, '/evaluations'))?.status).toBe(200);

  const report = await account.clientReport();
  const failed = report.keys.flatMap((k) => k.findings).filter((f) => f.verdict === 'fail');
  expect(failed).toEqual([]); // else each names its rule and the request ids that show it
  expect(report.summary.failed).toBe(0);
});
