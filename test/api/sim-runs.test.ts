/**
 * GET /v1/sim_runs/{run_id}/logs and /files (API document sections 2.6, 4.4 and 4.5; DESIGN.md
 * section 3 "Sim runs", "Logs query parameter", "File listing page size", "Sim run files before
 * success"). A sim run is an evaluation under its former name.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';
import { expectApiError, expectOk, file, SPEC } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

const LINES = Array.from({ length: 150 }, (_, i) => `step ${String(i + 1).padStart(3, '0')}`);

/** Five files given out of order; byte order puts upper case before lower case. */
const FILES = [
  file('b.txt', 2),
  file('logs/sdk.log', 300),
  file('a.txt', 1),
  file('B.txt', 20),
  file('A/manifest.json', 50),
];
const SORTED = ['A/manifest.json', 'B.txt', 'a.txt', 'b.txt', 'logs/sdk.log'];

const item = (path: string) => ({
  ...FILES.find((f) => f.path === path)!,
  object: 'sim_run_file',
});

async function seedRun(emu: Emu, body: Record<string, unknown>, account = DEFAULT_ACCOUNT) {
  return emu.control('POST', `/accounts/${account}/evaluations`, { spec: SPEC, ...body });
}

describe('GET /v1/sim_runs/{run_id}/logs', () => {
  test('answers the last 100 lines, oldest first, by default', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded', logs: LINES });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/logs`);
    expectOk(res, 200);
    expect(res.json).toEqual({ id: run.id, object: 'sim_run_logs', lines: LINES.slice(50) });
  });

  test('limit=1 answers the last line', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded', logs: LINES });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/logs?limit=1`);
    expectOk(res, 200);
    expect(res.json).toEqual({ id: run.id, object: 'sim_run_logs', lines: ['step 150'] });
  });

  test('limit=5000 answers every line when there are fewer', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded', logs: LINES });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/logs?limit=5000`);
    expectOk(res, 200);
    expect(res.json).toEqual({ id: run.id, object: 'sim_run_logs', lines: LINES });
  });

  test('limit=5000 answers exactly the last 5000 lines of a longer log', async () => {
    const emu = testEmulator();
    const many = Array.from({ length: 5002 }, (_, i) => `line ${i}`);
    const run = await seedRun(emu, { status: 'succeeded', logs: many });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/logs?limit=5000`);
    expectOk(res, 200);
    expect(res.json).toEqual({ id: run.id, object: 'sim_run_logs', lines: many.slice(2) });
  });

  test.each(['0', '5001', 'abc', '-1', '2.5', ''])(
    'limit=%s answers 400 parameter_invalid naming limit',
    async (limit) => {
      const emu = testEmulator();
      const run = await seedRun(emu, { status: 'succeeded', logs: LINES });
      const res = await emu.api('GET', `/v1/sim_runs/${run.id}/logs?limit=${limit}`);
      expectApiError(res, 400, 'parameter_invalid', 'limit');
    },
  );

  test.each(['queued', 'processing', 'canceling', 'failed', 'canceled'])(
    'the log of a %s run is readable',
    async (status) => {
      const emu = testEmulator();
      const run = await seedRun(emu, { status, logs: ['materializing', 'planning'] });
      const res = await emu.api('GET', `/v1/sim_runs/${run.id}/logs`);
      expectOk(res, 200);
      expect(res.json).toEqual({
        id: run.id,
        object: 'sim_run_logs',
        lines: ['materializing', 'planning'],
      });
    },
  );

  test('takes srun_ ids of runs created before the rename', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded', legacy: true, logs: ['ok'] });
    expect(run.id).toMatch(/^srun_/);
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/logs`);
    expectOk(res, 200);
    expect(res.json).toEqual({ id: run.id, object: 'sim_run_logs', lines: ['ok'] });
  });
});

describe('GET /v1/sim_runs/{run_id}/files', () => {
  test('a page that ends exactly at the last file has no more', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded', files: FILES });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/files?limit=5`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: SORTED.map(item),
      has_more: false,
      next_cursor: null,
    });
  });

  test('after the last path answers an empty last page', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded', files: FILES });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/files?after=logs%2Fsdk.log`);
    expectOk(res, 200);
    expect(res.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test('after a path that is not listed starts at the next path in byte order', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded', files: FILES });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/files?after=C&limit=1`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: [item('a.txt')],
      has_more: true,
      next_cursor: 'a.txt',
    });
  });

  test('pages of 100 by default', async () => {
    const emu = testEmulator();
    const many = Array.from({ length: 150 }, (_, i) =>
      file(`episodes/${String(i).padStart(4, '0')}.json`),
    );
    const run = await seedRun(emu, { status: 'succeeded', files: many });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/files`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: many.slice(0, 100).map((f) => ({ ...f, object: 'sim_run_file' })),
      has_more: true,
      next_cursor: 'episodes/0099.json',
    });
  });

  test('a succeeded run without files answers an empty list', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded' });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/files`);
    expectOk(res, 200);
    expect(res.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test.each(['0', '1001', 'abc'])(
    'limit=%s answers 400 parameter_invalid naming limit',
    async (limit) => {
      const emu = testEmulator();
      const run = await seedRun(emu, { status: 'succeeded', files: FILES });
      const res = await emu.api('GET', `/v1/sim_runs/${run.id}/files?limit=${limit}`);
      expectApiError(res, 400, 'parameter_invalid', 'limit');
    },
  );

  test('limit=1000 is accepted', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded', files: FILES });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/files?limit=1000`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: SORTED.map(item),
      has_more: false,
      next_cursor: null,
    });
  });

  test.each(['queued', 'processing', 'canceling', 'failed', 'canceled'])(
    'a %s run answers 409 run_not_ready',
    async (status) => {
      const emu = testEmulator();
      const run = await seedRun(emu, { status, files: FILES });
      const res = await emu.api('GET', `/v1/sim_runs/${run.id}/files`);
      const error = expectApiError(res, 409, 'run_not_ready');
      expect(error.message).toContain(status);
    },
  );

  test('takes srun_ ids of runs created before the rename', async () => {
    const emu = testEmulator();
    const run = await seedRun(emu, { status: 'succeeded', legacy: true, files: FILES });
    const res = await emu.api('GET', `/v1/sim_runs/${run.id}/files?limit=1`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: [item('A/manifest.json')],
      has_more: true,
      next_cursor: 'A/manifest.json',
    });
  });

  test('an unknown run answers 404 resource_not_found naming run_id', async () => {
    const { api } = testEmulator();
    const res = await api('GET', `/v1/sim_runs/srun_${'0'.repeat(26)}/files`);
    expectApiError(res, 404, 'resource_not_found', 'run_id');
  });

  test('validation comes before the lookup: an unknown run with a bad limit answers 400', async () => {
    const { api } = testEmulator();
    const res = await api('GET', `/v1/sim_runs/eval_${'0'.repeat(26)}/files?limit=0`);
    expectApiError(res, 400, 'parameter_invalid', 'limit');
  });
});
