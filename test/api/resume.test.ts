/**
 * POST /v1/evaluations/{run_id}/resume (API document sections 3.1 and 4.1; DESIGN.md section 3
 * "Not resumable").
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';
import { BASE, expectApiError, expectOk, file, type Res, SPEC, T0 } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

async function seed(emu: Emu, body: Record<string, unknown>, account = DEFAULT_ACCOUNT) {
  return emu.control('POST', `/accounts/${account}/evaluations`, { spec: SPEC, ...body });
}

const links = (id: string) => ({
  self: `${BASE}/v1/evaluations/${id}`,
  logs: `${BASE}/v1/sim_runs/${id}/logs`,
  files: `${BASE}/v1/sim_runs/${id}/files`,
  archive: `${BASE}/v1/evaluations/${id}/archive`,
});

/** What every resumed run looks like, from the request it was created with. */
function queued(id: string, version: string, request: Record<string, unknown> = {}) {
  return {
    id,
    object: 'evaluation',
    status: 'queued',
    phase: null,
    progress: 0,
    status_message: 'Queued',
    episodes: null,
    error: null,
    spec: SPEC,
    service_version: version,
    options: {},
    label: null,
    result: null,
    download: null,
    tokens: { charged: 0, refunded: 0 },
    webhook_metadata: null,
    created_at: T0,
    started_at: null,
    completed_at: null,
    links: links(id),
    ...request,
  };
}

/**
 * A 202 whose body is the whole resumed Evaluation. The new attempt's episode count and token
 * estimate belong to the runtime (DESIGN.md section 4 "Schedule", "Tokens"): the episodes start
 * at 0 done, nothing already charged is given back, and no refund is invented.
 */
function expectResumed(res: Res, expected: ReturnType<typeof queued>, version = '2026-09-27') {
  expectOk(res, 202, version);
  const { episodes, tokens } = res.json;
  if (episodes !== null) expect(episodes).toEqual({ done: 0, total: expect.any(Number) });
  expect(tokens).toEqual({ charged: expect.any(Number), refunded: expected.tokens.refunded });
  expect(tokens.charged).toBeGreaterThanOrEqual(expected.tokens.charged);
  expect(res.json).toEqual({ ...expected, episodes, tokens });
}

describe('POST /v1/evaluations/{run_id}/resume', () => {
  test('a failed run with a resumable error answers 202 with the run back in queued', async () => {
    const emu = testEmulator();
    const run = await seed(emu, {
      status: 'failed',
      phase: 'running',
      progress: 0.4,
      status_message: 'Interrupted while running',
      episodes: { done: 4, total: 10 },
      error: { code: 'interrupted', message: 'Lost the worker.', resumable: true },
      options: { episodes: 10 },
      label: 'nightly',
      webhook_metadata: { build: '42' },
      tokens: { charged: 120, refunded: 70 },
    });
    const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`);
    expectResumed(
      res,
      queued(run.id, '2026-09-27', {
        episodes: { done: 0, total: 10 },
        options: { episodes: 10 },
        label: 'nightly',
        webhook_metadata: { build: '42' },
        tokens: { charged: 120, refunded: 70 },
      }),
    );
    expect(run.id).toMatch(/^eval_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  test('a failed run seeded without an error is resumable', async () => {
    const emu = testEmulator();
    const run = await seed(emu, { status: 'failed' });
    const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`);
    expectResumed(res, queued(run.id, '2026-09-27'));
  });

  test('a canceled run answers 202 with the run back in queued', async () => {
    const emu = testEmulator();
    const run = await seed(emu, { status: 'canceled' });
    const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`);
    expectResumed(res, queued(run.id, '2026-09-27'));
  });

  test('the run records Service-Version 2026-10-12 when the resume sends it', async () => {
    const emu = testEmulator();
    const run = await seed(emu, { status: 'failed', service_version: '2026-09-27' });
    const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`, {
      headers: { 'service-version': '2026-10-12' },
    });
    expectResumed(res, queued(run.id, '2026-10-12'), '2026-10-12');
  });

  test('a run created before the rename (srun_) resumes like an eval_ run', async () => {
    const emu = testEmulator();
    const run = await seed(emu, { status: 'failed', legacy: true });
    expect(run.id).toMatch(/^srun_[0-9A-HJKMNP-TV-Z]{26}$/);
    const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`);
    expectResumed(res, queued(run.id, '2026-09-27'));
  });

  test('the created_at of the run is kept, started_at and completed_at are cleared', async () => {
    const emu = testEmulator();
    const run = await seed(emu, { status: 'canceled' });
    await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 600 });
    const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`);
    expectResumed(res, queued(run.id, '2026-09-27', { created_at: T0 }));
    expect(run.completed_at).toBe(T0);
  });

  test.each(['queued', 'processing', 'canceling', 'succeeded'])(
    'a %s run answers 409 not_resumable',
    async (status) => {
      const emu = testEmulator();
      const run = await seed(emu, { status });
      const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`);
      const error = expectApiError(res, 409, 'not_resumable');
      expect(error.message).toContain(status);
    },
  );

  test('a failed run whose error is not resumable answers 409 not_resumable', async () => {
    const emu = testEmulator();
    const run = await seed(emu, {
      status: 'failed',
      error: {
        code: 'spec_invalid',
        message: 'episodes must be positive',
        resumable: false,
        param: 'episodes',
      },
    });
    const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`);
    const error = expectApiError(res, 409, 'not_resumable');
    expect(error.message).toContain('spec_invalid');
  });

  test('a refused resume leaves the run as it was', async () => {
    const emu = testEmulator();
    const run = await seed(emu, {
      status: 'failed',
      logs: ['line 1'],
      error: { code: 'spec_invalid', message: 'bad', resumable: false },
    });
    expectApiError(await emu.api('POST', `/v1/evaluations/${run.id}/resume`), 409, 'not_resumable');
    const logs = await emu.api('GET', `/v1/sim_runs/${run.id}/logs`);
    expectOk(logs, 200);
    expect(logs.json).toEqual({ id: run.id, object: 'sim_run_logs', lines: ['line 1'] });
  });

  test("after a resume the previous attempt's logs are gone and the files are not ready", async () => {
    const emu = testEmulator();
    const previous = ['attempt 1: step 1', 'attempt 1: interrupted'];
    const run = await seed(emu, {
      status: 'failed',
      logs: previous,
      files: [file('logs/sdk.log')],
    });
    expectResumed(
      await emu.api('POST', `/v1/evaluations/${run.id}/resume`),
      queued(run.id, '2026-09-27'),
    );
    const logs = await emu.api('GET', `/v1/sim_runs/${run.id}/logs`);
    expectOk(logs, 200);
    // The new attempt may have logged that it is queued; nothing of the old attempt is left.
    expect(logs.json).toEqual({ id: run.id, object: 'sim_run_logs', lines: expect.any(Array) });
    for (const line of previous) expect(logs.json.lines).not.toContain(line);
    expect(logs.json.lines.length).toBeLessThanOrEqual(1);
    const files = await emu.api('GET', `/v1/sim_runs/${run.id}/files`);
    const error = expectApiError(files, 409, 'run_not_ready');
    expect(error.message).toContain('queued');
  });

  test('resuming the same run twice answers 409 not_resumable the second time', async () => {
    const emu = testEmulator();
    const run = await seed(emu, { status: 'failed' });
    expectOk(await emu.api('POST', `/v1/evaluations/${run.id}/resume`), 202);
    const again = await emu.api('POST', `/v1/evaluations/${run.id}/resume`);
    const error = expectApiError(again, 409, 'not_resumable');
    expect(error.message).toContain('queued');
  });

  test('a request body is ignored: resume takes none', async () => {
    const emu = testEmulator();
    const run = await seed(emu, { status: 'failed' });
    const res = await emu.api('POST', `/v1/evaluations/${run.id}/resume`, { body: {} });
    expectResumed(res, queued(run.id, '2026-09-27'));
  });
});

test('an id that answered 404 answers its run once a run with that id exists', async () => {
  // Ids are deterministic: a second emulator with the same seed creates the same first id.
  const first = testEmulator();
  const created = await first.api('POST', '/v1/evaluations', { body: { spec: SPEC } });
  const id = created.json.id as string;
  const emu = testEmulator();
  expect((await emu.api('GET', `/v1/evaluations/${id}`)).status).toBe(404);
  expect((await emu.api('POST', `/v1/evaluations/${id}/resume`)).status).toBe(404);
  await emu.api('POST', '/v1/evaluations', { body: { spec: SPEC } });
  const found = await emu.api('GET', `/v1/evaluations/${id}`);
  expect(found.status).toBe(200);
  expect(found.json.id).toBe(id);
  expect(found.json.spec).toEqual(SPEC);
  // Another account's id reads as absent, before and after.
  const other = await emu.control('POST', '/accounts', { name: 'other' });
  const secret = other.key.secret as string;
  expect((await emu.api('GET', `/v1/evaluations/${id}`, { secret })).status).toBe(404);
});
