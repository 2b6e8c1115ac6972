/**
 * Fault sweeps (issue 38): every (operation x fault) pair armed once, met in a deterministic
 * order by a suite's own calls, and the matrix of what the client did next.
 */
import { describe, expect, test } from 'vitest';
import { testEmulator } from '../../../test/helpers.js';

const SEVEN = ['429', '502', '503', 'drop', '502_after', 'drop_after', 'hang_after'];

/** A suite's client: retries a retryable answer (or a lost connection) up to 3 times, same key. */
async function withRetries(send: () => Promise<Response>): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    const retryable = res.type === 'error' || [429, 502, 503, 504].includes(res.status);
    if (!retryable || attempt === 3) return res;
  }
}

/** Seven rounds of a suite calling five operations through `app.request()`. */
async function suite(faults = SEVEN) {
  const emu = testEmulator();
  const { account, key } = await emu.control('POST', '/accounts', { name: 'suite' });
  const sweep = await emu.control('POST', '/sweeps', { account: account.id, faults, hang_ms: 1 });
  const headers = { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' };
  const call = (method: string, path: string, body?: unknown, idem?: string) =>
    withRetries(async () =>
      emu.app.request(path, {
        method,
        headers: idem ? { ...headers, 'idempotency-key': idem } : headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  for (let round = 0; round < faults.length; round++) {
    const spec = { spec: { path: 'sdk/spec.yaml', name: `round-${round}` } };
    const created = await call('POST', '/v1/evaluations', spec, `create-${round}`);
    const { id } = (await created.json()) as { id: string };
    await call('GET', `/v1/evaluations/${id}`);
    await call('GET', '/v1/evaluations');
    await call('GET', '/v1/keys/me');
    const url = { url: `https://example.test/hooks/${round}` };
    await call('POST', '/v1/webhook_endpoints', url, `hook-${round}`);
  }
  return { emu, sweep: await emu.control('GET', `/sweeps/${sweep.id}`), account: account.id };
}

describe('fault sweeps', () => {
  test('a suite that calls 5 operations meets each of 7 faults once on each: a 5 x 7 matrix', async () => {
    const { sweep } = await suite();
    expect(sweep.matrix.map((r: { operation: string }) => r.operation)).toEqual([
      'createEvaluation',
      'getEvaluation',
      'listEvaluations',
      'getCurrentKey',
      'createWebhookEndpoint',
    ]);
    for (const row of sweep.matrix) {
      expect(row.cells.map((c: { fault: string }) => c.fault)).toEqual(SEVEN);
      for (const cell of row.cells) {
        expect(cell).toMatchObject({
          outcome: 'recovered',
          request_id: expect.stringMatching(/^req_/),
        });
      }
    }
    expect(sweep.summary).toEqual({
      operations: 5,
      cells: 35,
      met: 35,
      recovered: 35,
      gave_up: 0,
      duplicated_write: 0,
      not_reached: 0,
      unknown: 0,
    });
    const requestIds = sweep.matrix.flatMap((r: { cells: { request_id: string }[] }) =>
      r.cells.map((c) => c.request_id),
    );
    expect(new Set(requestIds).size).toBe(35);
  });

  test('the same seed and calls give the same matrix, byte for byte', async () => {
    const [a, b] = [await suite(), await suite()];
    expect(JSON.stringify(b.sweep)).toBe(JSON.stringify(a.sweep));
  });

  test('a client that does not retry gives up; a retry without its key duplicates the write', async () => {
    const emu = testEmulator();
    const { account, key } = await emu.control('POST', '/accounts', { name: 'naive' });
    const sweep = await emu.control('POST', '/sweeps', {
      account: account.id,
      operations: ['createEvaluation', 'getCurrentKey'],
      faults: ['502_after', '503'],
    });
    expect(sweep.summary).toMatchObject({ operations: 2, cells: 4, met: 0, not_reached: 4 });
    const headers = { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ spec: { path: 'sdk/spec.yaml', name: 'once' } });
    const create = () => emu.app.request('/v1/evaluations', { method: 'POST', headers, body });
    expect((await create()).status).toBe(502);
    expect((await create()).status).toBe(201); // the rest after a strike: the retry passes
    expect((await emu.app.request('/v1/keys/me', { headers })).status).toBe(502);
    const read = await emu.control('GET', `/sweeps/${sweep.id}`);
    expect(read.matrix).toEqual([
      {
        operation: 'createEvaluation',
        cells: [
          expect.objectContaining({ fault: '502_after', outcome: 'duplicated_write' }),
          expect.objectContaining({ fault: '503', outcome: 'not_reached', request_id: null }),
        ],
      },
      {
        operation: 'getCurrentKey',
        cells: [
          expect.objectContaining({
            fault: '502_after',
            outcome: 'gave_up',
            next_request_id: null,
          }),
          expect.objectContaining({ fault: '503', outcome: 'not_reached' }),
        ],
      },
    ]);
    const markdown = await (await emu.app.request('/_control/coverage?format=markdown')).text();
    expect(markdown).toContain(`### Sweep ${sweep.id} (account ${account.id})`);
    expect(markdown).toContain('| `createEvaluation` | **duplicated write** | not reached |');
    const listed = await emu.control('GET', '/sweeps');
    expect(listed.data.map((s: { id: string }) => s.id)).toEqual([sweep.id]);
    expect(await emu.control('DELETE', `/sweeps/${sweep.id}`)).toEqual({
      id: sweep.id,
      deleted: true,
    });
    // createEvaluation's next call would have met its 503.
    expect((await create()).status).toBe(201);
  });

  test('a fault name, operation or account that is none answers 400 or 404', async () => {
    const emu = testEmulator();
    const post = async (body: unknown) => {
      const res = await emu.app.request('/_control/sweeps', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: res.status,
        error: ((await res.json()) as { error: { param: string } }).error,
      };
    };
    expect(await post({ faults: ['429_after'] })).toMatchObject({
      status: 400,
      error: { param: 'faults' },
    });
    expect(await post({ faults: ['429', '429'] })).toMatchObject({ status: 400 });
    expect(await post({ operations: ['makeCoffee'] })).toMatchObject({
      status: 400,
      error: { param: 'operations' },
    });
    expect(await post({ account: 'acct_nope' })).toMatchObject({
      status: 404,
      error: { param: 'account' },
    });
  });
});
