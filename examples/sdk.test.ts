// An SDK's test file against svc-emulator: one emulator per file, one account per test, so the
// tests run in parallel without meeting (each account has its own clock, ids and balance).
import { createHash } from 'node:crypto';
import { type RunningEmulator, startEmulator } from 'svc-emulator/testing';
import { afterAll, beforeAll, describe, test } from 'vitest';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ seed: 'sdk-tests' }); // manual clocks by default
});
afterAll(() => emulator?.stop()); // undefined if the start failed: its own error is the one shown

/** The fields of an evaluation these tests read. */
interface Evaluation {
  id: string;
  status: string;
  phase: string | null;
  error: { code: string; resumable: boolean } | null;
  download: { sha256: string } | null;
  tokens: { charged: number; refunded: number };
}

/** Stands in for your SDK: it is what the tests exercise. */
function sdk(apiUrl: string, headers: Record<string, string>) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  return {
    createEvaluation: async (body: unknown): Promise<Evaluation> =>
      (await call('POST', '/evaluations', body)).json() as Promise<Evaluation>,
    getEvaluation: async (id: string): Promise<Evaluation> =>
      (await call('GET', `/evaluations/${id}`)).json() as Promise<Evaluation>,
    downloadArchive: async (id: string) =>
      Buffer.from(await (await call('GET', `/evaluations/${id}/archive`)).arrayBuffer()),
  };
}

describe.concurrent('evaluations', () => {
  test('a run succeeds after 5 virtual seconds and its archive matches download.sha256', async ({
    expect,
  }) => {
    const account = await emulator.control.newAccount();
    const client = sdk(account.apiUrl, account.headers);

    const run = await client.createEvaluation({ spec: { path: 'specs/pick.yaml', name: 'pick' } });
    expect(run.status).toBe('queued');

    const { transitions } = await account.clock.advance(5);
    expect(transitions.at(-1)).toMatchObject({ resource: run.id, to: 'succeeded' });

    const done = await client.getEvaluation(run.id);
    expect(done.status).toBe('succeeded');
    const archive = await client.downloadArchive(run.id);
    expect(createHash('sha256').update(archive).digest('hex')).toBe(done.download?.sha256);
  });

  test('a run whose policy fails reports a resumable error and refunds tokens', async ({
    expect,
  }) => {
    const account = await emulator.control.newAccount({ name: 'failing policy' });
    const client = sdk(account.apiUrl, account.headers);

    const run = await client.createEvaluation({
      spec: { path: 'specs/pick.yaml', name: 'pick' },
      options: {
        episodes: 4,
        emulator: { outcomes: [{ fail: 'policy_failed', after_episodes: 1 }] },
      },
    });
    await account.clock.advance(2.3); // this account's clock only: the other test's is untouched
    expect(await client.getEvaluation(run.id)).toMatchObject({
      status: 'processing',
      phase: 'running',
    });

    await account.clock.advance(60);
    const failed = await client.getEvaluation(run.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'policy_failed', resumable: true });
    expect(failed.tokens.refunded).toBeGreaterThan(0);
    expect((await account.clock.get()).now).toBe('2026-01-01T00:01:02.300Z');
  });
});
