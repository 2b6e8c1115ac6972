import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PACKAGE_ROOT } from '../../src/emulator.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, expectError, testEmulator } from '../helpers.js';
import { naiveClient, retryingClient } from './clients.js';

const SPEC = { spec: { path: 'sdk/spec.yaml', name: 'pick-place' } };

function scenario(name: string) {
  const emu = testEmulator({ scenario: name });
  const fetch = (url: string, init: RequestInit) => Promise.resolve(emu.app.request(url, init));
  const advance = async (seconds: number) => {
    await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });
  };
  return {
    ...emu,
    fetch,
    advance,
    naive: naiveClient(fetch, DEFAULT_SECRET),
    retrying: retryingClient(fetch, DEFAULT_SECRET, advance),
  };
}

describe('the shipped scenarios', () => {
  test('each file is listed with its description and loads at run time', async () => {
    const names = readdirSync(join(PACKAGE_ROOT, 'scenarios'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'default',
        'flaky-upstream',
        'legacy-srun-ids',
        'rate-limited',
        'resume-after-interruption',
        'twin-not-ready',
      ]),
    );
    const { control, api } = testEmulator();
    const listed = await control('GET', '/scenarios');
    for (const name of names) {
      expect(listed.data).toContainEqual({ name, description: expect.any(String), error: null });
      expect(await control('POST', '/scenarios/load', { name })).toEqual({ scenario: name });
      // Every scenario keeps the documented default key, so an SDK's configuration carries over.
      expect((await api('GET', '/v1/keys/me')).status).not.toBe(401);
    }
  });
});

describe('resume-after-interruption', () => {
  test('the seeded run fails interrupted during running, then succeeds when resumed', async () => {
    const s = scenario('resume-after-interruption');
    const id = 'eval_00000000000000000000000001';
    await s.advance(60);
    const failed = (await s.api('GET', `/v1/evaluations/${id}`)).json;
    expect(failed).toMatchObject({
      status: 'failed',
      phase: 'running',
      episodes: { done: 3, total: 10 },
      error: { code: 'interrupted', resumable: true },
    });
    const resumed = await s.api('POST', `/v1/evaluations/${id}/resume`);
    expect(resumed.status).toBe(202);
    expect(resumed.json).toMatchObject({ status: 'queued', error: null, progress: 0 });
    await s.advance(60);
    const done = (await s.api('GET', `/v1/evaluations/${id}`)).json;
    expect(done).toMatchObject({ status: 'succeeded', progress: 1, result: { verified: true } });
  });

  test("new runs named 'flaky-policy' follow the same plan", async () => {
    const s = scenario('resume-after-interruption');
    const created = await s.api('POST', '/v1/evaluations', {
      body: { spec: { path: 'sdk/spec.yaml', name: 'flaky-policy' } },
    });
    await s.advance(60);
    expect((await s.api('GET', `/v1/evaluations/${created.json.id}`)).json.status).toBe('failed');
    await s.api('POST', `/v1/evaluations/${created.json.id}/resume`);
    await s.advance(60);
    expect((await s.api('GET', `/v1/evaluations/${created.json.id}`)).json.status).toBe(
      'succeeded',
    );
  });
});

describe('rate-limited', () => {
  test('a naive client fails on the 6th call in a minute; a retrying one waits and succeeds', async () => {
    const s = scenario('rate-limited');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await s.naive('GET', '/v1/keys/me')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

    const r = scenario('rate-limited');
    const replies = [];
    for (let i = 0; i < 12; i++) replies.push(await r.retrying('GET', '/v1/keys/me'));
    expect(replies.every((x) => x.status === 200)).toBe(true);
    expect(replies.map((x) => x.attempts)).toEqual([1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 1]);
  });

  test('one concurrent run: the second create answers 429 until the first finishes', async () => {
    const s = scenario('rate-limited');
    expect((await s.naive('POST', '/v1/evaluations', SPEC)).status).toBe(201);
    const second = await s.naive('POST', '/v1/evaluations', SPEC);
    expect(second.json.error.code).toBe('concurrency_limit_exceeded');
    const r = scenario('rate-limited');
    expect((await r.retrying('POST', '/v1/evaluations', SPEC)).status).toBe(201);
    const retried = await r.retrying('POST', '/v1/evaluations', SPEC);
    expect(retried).toMatchObject({ status: 201, attempts: 2 });
    expect((await r.api('GET', '/v1/evaluations')).json.data).toHaveLength(2);
  });
});

describe('flaky-upstream', () => {
  test('502 then success: a naive client fails, a retrying one creates exactly one run', async () => {
    const s = scenario('flaky-upstream');
    const naive = await s.naive('POST', '/v1/evaluations', SPEC);
    expect(naive.status).toBe(502);
    expect(naive.json.error).toMatchObject({ type: 'api_error', code: 'launch_failed' });

    const r = scenario('flaky-upstream');
    const created = await r.retrying('POST', '/v1/evaluations', SPEC);
    expect(created).toMatchObject({ status: 201, attempts: 3 });
    expect((await r.api('GET', '/v1/evaluations')).json.data).toHaveLength(1);
    const me = await r.retrying('GET', '/v1/keys/me');
    expect(me).toMatchObject({ status: 200, attempts: 2 });
    const journal = await r.control('GET', '/requests?operation=createEvaluation');
    expect(journal.data.map((e: { status: number }) => e.status)).toEqual([502, 502, 201]);
  });

  test('a reset brings the faults back', async () => {
    const s = scenario('flaky-upstream');
    expect((await s.naive('GET', '/v1/keys/me')).status).toBe(503);
    expect((await s.naive('GET', '/v1/keys/me')).status).toBe(200);
    await s.control('POST', '/reset', {});
    expect((await s.naive('GET', '/v1/keys/me')).status).toBe(503);
  });
});

describe('legacy-srun-ids', () => {
  test('srun_ ids work on every run endpoint', async () => {
    const s = scenario('legacy-srun-ids');
    const done = 'srun_00000000000000000000000001';
    await s.advance(60);
    const run = (await s.api('GET', `/v1/evaluations/${done}`)).json;
    expect(run).toMatchObject({ id: done, status: 'succeeded' });
    const files = (await s.api('GET', `/v1/sim_runs/${done}/files`)).json;
    expect(files.data.map((f: { path: string }) => f.path)).toContain('manifest.json');
    const logs = await s.api('GET', `/v1/sim_runs/${done}/logs`);
    expect(logs.status).toBe(200);
    const archive = await s.app.request(`/v1/evaluations/${done}/archive`, {
      headers: { authorization: `Bearer ${DEFAULT_SECRET}` },
    });
    expect(archive.status).toBe(200);
    expect(archive.headers.get('content-disposition')).toContain(`${done}.tar.gz`);

    const failed = 'srun_00000000000000000000000002';
    const resumed = await s.api('POST', `/v1/evaluations/${failed}/resume`);
    expect(resumed.status).toBe(202);
    expect(resumed.json).toMatchObject({ id: failed, status: 'queued' });
    const listed = (await s.api('GET', '/v1/evaluations')).json.data.map(
      (e: { id: string }) => e.id,
    );
    expect(listed).toEqual(expect.arrayContaining([done, failed]));
  });
});

describe('twin-not-ready', () => {
  test('file listings answer 409 twin_not_ready until the twin succeeds', async () => {
    const s = scenario('twin-not-ready');
    const [onClock, stuck, failed] = ['1', '2', '3'].map(
      (n) => `twin_0000000000000000000000000${n}`,
    );
    for (const id of [onClock, stuck, failed]) {
      expectError(await s.api('GET', `/v1/twins/${id}/files`), 409, 'twin_not_ready');
    }
    await s.advance(5);
    const ready = await s.api('GET', `/v1/twins/${onClock}/files`);
    expect(ready.status).toBe(200);
    expect(ready.json.data).toHaveLength(3);
    expectError(await s.api('GET', `/v1/twins/${stuck}/files`), 409, 'twin_not_ready');
    expectError(await s.api('GET', `/v1/twins/${failed}/files`), 409, 'twin_not_ready');
  });
});

describe('every-kind', () => {
  test('seeds a run of every kind; one advance finishes them, and the planned failure resumes', async () => {
    const s = scenario('every-kind');
    const get = async (path: string) => (await s.api('GET', path)).json;
    expect((await get('/v1/augmentations/aug_00000000000000000000000002')).status).toBe('failed');
    expect((await get('/v1/scenario_runs/scnrun_00000000000000000000000002')).status).toBe(
      'canceled',
    );
    await s.advance(60);
    for (const path of [
      '/v1/augmentations/aug_00000000000000000000000001',
      '/v1/twins/twin_00000000000000000000000001',
      '/v1/rl_runs/rl_00000000000000000000000001',
      '/v1/scenario_runs/scnrun_00000000000000000000000001',
      '/v1/evaluations/eval_00000000000000000000000001',
    ]) {
      const run = await get(path);
      expect(run.status, path).toBe('succeeded');
      expect(run.download.sha256, path).toMatch(/^[0-9a-f]{64}$/);
    }
    const rl = await get('/v1/rl_runs/rl_00000000000000000000000001');
    expect(rl.result.verdict).toMatchObject({ passed: false, threshold: 0.7 });
    const train = '/v1/training_runs/train_00000000000000000000000001';
    expect(await get(train)).toMatchObject({ status: 'failed', error: { code: 'diverged' } });
    expect((await s.api('POST', `${train}/resume`)).status).toBe(202);
    await s.advance(60);
    expect((await get(train)).status).toBe('succeeded');
    const policies = await get('/v1/catalog/policies');
    expect(policies.data.map((p: { source_run: string | null }) => p.source_run)).toEqual(
      expect.arrayContaining(['train_00000000000000000000000001', 'rl_00000000000000000000000001']),
    );
  });
});
