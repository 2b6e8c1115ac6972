/**
 * Control seeding of any run kind (DESIGN.md section 5: "a run with an outcome plan, or already
 * in a given state"): `POST /_control/accounts/{id}/runs` and scenario files' `runs`.
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../helpers.js';

const PANDA = 'ds_01KA0000000000000000PANDA1';
const AUG = { kind: 'augmentation' as const, dataset: PANDA, config: { episode_count: 2 } };

async function seed(emu: ReturnType<typeof testEmulator>, body: Record<string, unknown>) {
  const res = await emu.app.request(`/_control/accounts/${DEFAULT_ACCOUNT}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

test('a run seeded in a fixed state reads back in it, and its outcomes plan its resumes', async () => {
  const emu = testEmulator();
  const res = await seed(emu, {
    ...AUG,
    id: 'aug_0000000000000000000000FA1L',
    status: 'failed',
    error: { code: 'generation_failed', message: 'boom', resumable: true },
    outcomes: [{ fail: 'interrupted' }],
    logs: ['line one'],
  });
  expect(res.status).toBe(201);
  expect(res.json).toMatchObject({
    id: 'aug_0000000000000000000000FA1L',
    object: 'augmentation',
    status: 'failed',
    error: { code: 'generation_failed', message: 'boom', resumable: true },
  });
  const read = await emu.api('GET', '/v1/augmentations/aug_0000000000000000000000FA1L');
  expect(read.json).toEqual(res.json);
  expect((await emu.api('GET', `/v1/augmentations/${res.json.id}/logs`)).json.lines).toEqual([
    'line one',
  ]);
  // The first resume takes outcomes[0].
  expect((await emu.api('POST', `/v1/augmentations/${res.json.id}/resume`)).status).toBe(202);
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 10 });
  const after = await emu.api('GET', `/v1/augmentations/${res.json.id}`);
  expect(after.json).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
});

test('a run seeded without a status is put on the clock with its plan and given files', async () => {
  const emu = testEmulator();
  const files = [{ path: 'custom/one.bin', bytes: 3, sha256: 'a'.repeat(64) }];
  const res = await seed(emu, { ...AUG, files });
  expect(res.status).toBe(201);
  expect(res.json).toMatchObject({ status: 'queued', tokens: { charged: 13, refunded: 0 } });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 10 });
  const listing = await emu.api('GET', `/v1/augmentations/${res.json.id}/files`);
  expect(listing.json.data).toEqual([{ ...files[0], object: 'augmentation_file' }]);
  const planned = await seed(emu, { ...AUG, outcomes: [{ fail: 'dataset_unreadable' }] });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 10 });
  const failed = await emu.api('GET', `/v1/augmentations/${planned.json.id}`);
  expect(failed.json).toMatchObject({ status: 'failed', error: { code: 'dataset_unreadable' } });
});

test('bad seeds answer 400 parameter_invalid naming the field', async () => {
  const emu = testEmulator();
  const cases: [Record<string, unknown>, string][] = [
    [{ ...AUG, kind: 'nope' }, 'kind'],
    [{ ...AUG, config: { episode_count: 99 } }, 'config.episode_count'],
    [{ ...AUG, dataset: 'ds_nope' }, 'dataset'],
    [{ ...AUG, id: 'eval_0000000000000000000000WRNG' }, 'id'],
    [{ ...AUG, outcomes: [{ fail: 'spec_invalid' }] }, 'outcomes.0.fail'],
    [{ ...AUG, status: 'sleeping' }, 'status'],
    [{ ...AUG, extra: 1 }, 'extra'],
  ];
  for (const [body, param] of cases) {
    const res = await seed(emu, body);
    expectError(res, 400, 'parameter_invalid', param);
  }
  await seed(emu, { ...AUG, id: 'aug_0000000000000000000000DUPE' });
  expectError(
    await seed(emu, { ...AUG, id: 'aug_0000000000000000000000DUPE' }),
    400,
    'parameter_invalid',
    'id',
  );
});

test('a scenario file seeds runs of any kind with `runs`', async () => {
  const emu = testEmulator({
    scenario: {
      name: 'runs',
      accounts: [
        {
          id: 'acct_runs',
          features: [],
          token_balance: 1000,
          keys: [{ name: 'k', scopes: ['augmentations:read'], secret: 'svc_test_runs_scenario' }],
          runs: [{ ...AUG, id: 'aug_0000000000000000000000SEED', status: 'succeeded' }],
        },
      ],
    },
  });
  const res = await emu.api('GET', '/v1/augmentations', { secret: 'svc_test_runs_scenario' });
  expect(res.status).toBe(200);
  expect(res.json.data.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
    ['aug_0000000000000000000000SEED', 'succeeded'],
  ]);
});
