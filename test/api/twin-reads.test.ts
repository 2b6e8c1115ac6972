/**
 * GET /v1/twins and GET /v1/twins/{twin_id} (inferred, DESIGN.md section 3 "Inferred
 * endpoints"): the twin object derived on the account's clock, newest-first cursor paging, and
 * the scope and feature of the documented twin file listing (section 4.6).
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, NO_TWINS_ACCOUNT, testEmulator } from '../helpers.js';
import { expectApiError, expectOk, file, T0 } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

async function seedTwin(emu: Emu, body: Record<string, unknown> = {}, account = DEFAULT_ACCOUNT) {
  return emu.control('POST', `/accounts/${account}/twins`, body);
}

async function advance(emu: Emu, seconds: number) {
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });
}

async function getTwin(emu: Emu, id: string) {
  const res = await emu.api('GET', `/v1/twins/${id}`);
  expectOk(res, 200);
  return res.json;
}

describe('GET /v1/twins/{twin_id}', () => {
  test('follows a twin built on the clock: queued, processing, succeeded with its files', async () => {
    const emu = testEmulator();
    const { id } = await seedTwin(emu);
    const twin = (status: string, extra: Record<string, unknown>) => ({
      id,
      object: 'twin',
      status,
      file_count: null,
      created_at: T0,
      started_at: null,
      completed_at: null,
      ...extra,
    });
    // On the run engine the twin body carries every run field; these are the ones it had.
    expect(await getTwin(emu, id)).toMatchObject(twin('queued', { phase: null }));
    await advance(emu, 1);
    expect(await getTwin(emu, id)).toMatchObject(
      twin('processing', { started_at: at(1), phase: 'extracting' }),
    );
    await advance(emu, 3);
    expect(await getTwin(emu, id)).toMatchObject(
      twin('processing', { started_at: at(1), phase: 'validating' }),
    );
    await advance(emu, 1);
    expect(await getTwin(emu, id)).toMatchObject(
      twin('succeeded', { file_count: 3, started_at: at(1), completed_at: at(5) }),
    );
    // The count is what the file listing lists.
    const files = await emu.api('GET', `/v1/twins/${id}/files`);
    expect(files.json.data).toHaveLength(3);
  });

  test('a twin that fails on the clock fails reconstructing its second part, without files', async () => {
    const emu = testEmulator();
    const { id } = await seedTwin(emu, { fail: true });
    await advance(emu, 10);
    expect(await getTwin(emu, id)).toMatchObject({
      id,
      object: 'twin',
      status: 'failed',
      phase: 'reconstructing',
      file_count: null,
      error: { code: 'reconstruction_failed', details: { location: 'scene/part_00001.usd' } },
      created_at: T0,
      started_at: at(1),
      completed_at: at(2.75),
    });
  });

  test.each([
    ['queued', null, null, null],
    ['processing', null, T0, null],
    ['succeeded', 2, T0, T0],
    ['failed', null, T0, T0],
  ])(
    'a twin seeded %s reads with file_count %s and its seeding time',
    async (status, count, started, completed) => {
      const emu = testEmulator();
      await advance(emu, 60);
      const { id } = await seedTwin(emu, { status, files: [file('a.usd'), file('b.usd')] });
      await advance(emu, 60);
      const start = at(60);
      expect(await getTwin(emu, id)).toMatchObject({
        id,
        object: 'twin',
        status,
        file_count: count,
        created_at: start,
        started_at: started && start,
        completed_at: completed && start,
      });
    },
  );
});

describe('GET /v1/twins', () => {
  test("lists the account's twins newest first, each as GET shows it", async () => {
    const emu = testEmulator();
    const a = await seedTwin(emu, { status: 'succeeded' });
    await advance(emu, 2);
    const b = await seedTwin(emu);
    await seedTwin(emu, { status: 'succeeded' }, NO_TWINS_ACCOUNT);
    const res = await emu.api('GET', '/v1/twins');
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: [await getTwin(emu, b.id), await getTwin(emu, a.id)],
      has_more: false,
      next_cursor: null,
    });
    expect(res.json.data.map((t: { status: string }) => t.status)).toEqual(['queued', 'succeeded']);
  });

  test('filters by status as of now on the clock', async () => {
    const emu = testEmulator();
    const early = await seedTwin(emu);
    await advance(emu, 3);
    const late = await seedTwin(emu);
    const ids = async (status: string) =>
      (await emu.api('GET', `/v1/twins?status=${status}`)).json.data.map(
        (t: { id: string }) => t.id,
      );
    expect(await ids('processing')).toEqual([early.id]);
    expect(await ids('queued')).toEqual([late.id]);
    await advance(emu, 2);
    expect(await ids('succeeded')).toEqual([early.id]);
    expect(await ids('processing')).toEqual([late.id]);
    expect(await ids('failed')).toEqual([]);
  });

  test("an unknown or another account's cursor answers 400 naming after", async () => {
    const emu = testEmulator();
    await seedTwin(emu);
    const theirs = await seedTwin(emu, {}, NO_TWINS_ACCOUNT);
    for (const after of [theirs.id, `twin_${'0'.repeat(26)}`, 'x']) {
      expectApiError(
        await emu.api('GET', `/v1/twins?after=${after}`),
        400,
        'parameter_invalid',
        'after',
      );
    }
  });

  test.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['status=stuck', 'status'],
  ])('%s answers 400 naming %s', async (query, param) => {
    const { api } = testEmulator();
    expectApiError(await api('GET', `/v1/twins?${query}`), 400, 'parameter_invalid', param);
  });
});
