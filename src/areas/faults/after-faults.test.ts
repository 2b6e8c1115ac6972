/**
 * Faults after the write (issue 38): the call does its work (the resource made, charged and
 * journaled as done) and only the answer is lost: a 5xx, a dropped connection or a hang.
 */
import { serve } from '@hono/node-server';
import { describe, expect, test } from 'vitest';
import { expectError } from '../../../test/helpers.js';
import { eventually } from '../../../test/wait.js';
import { SPEC, withAccount } from '../../../test/with-account.js';

const list = async (a: Awaited<ReturnType<typeof withAccount>>) =>
  (await a.call('GET', '/v1/evaluations')).json.data.map((e: { id: string }) => e.id);

describe('faults after the write', () => {
  test('a 502 after createEvaluation: the run exists and is charged; the same key replays it, none makes another', async () => {
    const a = await withAccount({ token_balance: 1000 });
    await a.control('POST', '/faults', {
      match: { operation: 'createEvaluation' },
      respond: { status: 502, after: true },
      times: 1,
    });
    const headers = { 'idempotency-key': 'order-1' };
    const lost = await a.call('POST', '/v1/evaluations', { body: SPEC, headers });
    expectError(lost, 502, 'launch_failed');
    const [made] = await list(a);
    expect(made).toMatch(/^eval_/);
    const { token_balance } = await a.control('GET', `/accounts/${a.accountId}`);
    expect(token_balance).toBeLessThan(1000);

    const replayed = await a.call('POST', '/v1/evaluations', { body: SPEC, headers });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.json.id).toBe(made);
    expect(await list(a)).toEqual([made]);

    const again = await a.call('POST', '/v1/evaluations', { body: SPEC });
    expect(again.status).toBe(201);
    expect(again.json.id).not.toBe(made);
    expect((await list(a)).sort()).toEqual([made, again.json.id].sort());

    const { data } = await a.control('GET', `/requests?account=${a.accountId}&method=POST`);
    expect(data[0]).toMatchObject({
      status: 502,
      code: 'launch_failed',
      fault_after: true,
      work_status: 201,
      resource_id: made,
      idempotency_key: 'order-1',
      body_digest: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(data[1]).toMatchObject({ status: 201, idempotent_replayed: true, fault_after: false });
    expect(data[2]).toMatchObject({ resource_id: again.json.id, idempotency_key: null });
    expect(data[2].body_digest).toBe(data[0].body_digest);
  });

  test('a retry without a key after a 502 after createEvaluation makes a second one: the client report names it', async () => {
    const a = await withAccount({ token_balance: 1000 });
    await a.control('POST', '/faults', {
      match: { operation: 'createEvaluation' },
      respond: { status: 502, after: true },
      times: 1,
    });
    expectError(await a.call('POST', '/v1/evaluations', { body: SPEC }), 502, 'launch_failed');
    const [made] = await list(a);
    const again = await a.call('POST', '/v1/evaluations', { body: SPEC });
    expect(again.status).toBe(201);
    const report = await a.control('GET', `/client_report?account=${a.accountId}`);
    const dup = report.keys[0].findings.find(
      (f: { rule: string }) => f.rule === 'no_duplicate_write',
    );
    expect(dup).toMatchObject({
      verdict: 'fail',
      summary: '1 of 1 lost answer left a duplicate resource.',
    });
    expect(dup.cases[0].note).toBe(
      `POST /v1/evaluations: the write whose answer was lost (${made}) was made again: ${again.json.id}`,
    );
  });

  test('X-Emulator-Fault takes ;after on a 5xx, drop and hang; a 4xx after the work is refused', async () => {
    const a = await withAccount();
    const fault = (value: string) =>
      a.call('POST', '/v1/evaluations', { body: SPEC, headers: { 'x-emulator-fault': value } });
    expectError(await fault('504;after'), 504, 'api_error');
    expect((await fault('drop;after')).status).toBe(0);
    expect((await fault('hang=20;after')).status).toBe(0);
    expect(await list(a)).toHaveLength(3);
    const refused = await fault('429;after');
    expectError(refused, 400, 'parameter_invalid', 'X-Emulator-Fault');
    expect(refused.json.error.message).toContain('500, 502, 503, 504');
    expect((await fault('503')).status).toBe(503);
    expect(await list(a)).toHaveLength(3);
    const { data } = await a.control('GET', `/requests?account=${a.accountId}&method=POST`);
    expect(data.map((e: Record<string, unknown>) => [e.status, e.fault_after, e.hang_ms])).toEqual([
      [504, true, null],
      [null, true, null],
      [null, true, 20],
      [503, false, null],
    ]);
  });

  test('a rule refuses after with a status other than 500, 502, 503, 504', async () => {
    const a = await withAccount();
    const res = await a.app.request('/_control/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ respond: { status: 429, after: true } }),
    });
    expectError(
      { status: res.status, headers: res.headers, json: await res.json() },
      400,
      'parameter_invalid',
      'respond.status',
    );
  });

  test('a hang holds the answer until the client gives up; the journal says when it closed', async () => {
    const a = await withAccount();
    await a.control('POST', '/faults', {
      match: { operation: 'createEvaluation' },
      respond: { hang_ms: 600_000, after: true },
      times: 1,
    });
    const server = serve({ fetch: a.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    try {
      const client = new AbortController();
      const sent = fetch(`http://127.0.0.1:${port}/v1/evaluations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(SPEC),
        signal: client.signal,
      });
      // The work is done at once, while the answer is held; the client then gives up (its own
      // timeout, here once the evaluation exists, however long a busy machine took to get there).
      await eventually(
        async () => ((await list(a)).length === 1 ? true : undefined),
        'the evaluation made before the hang',
      );
      client.abort();
      await expect(sent).rejects.toThrow(/aborted/i);
      // The journal entry comes when the client closes.
      let entry: Record<string, unknown> | undefined;
      while (!entry) {
        const { data } = await a.control('GET', `/requests?account=${a.accountId}&method=POST`);
        entry = data[0];
        if (!entry) await new Promise((r) => setImmediate(r));
      }
      expect(entry).toMatchObject({
        status: null,
        fault_after: true,
        work_status: 201,
        hang_ms: 600_000,
        client_closed: true,
      });
    } finally {
      server.close();
    }
  });
});
