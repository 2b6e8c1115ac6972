/**
 * Scenario `outcome_rules` (DESIGN.md section 4 "Outcomes": plans "from scenario rules matched on
 * `spec.name`/`label`"): a run created through `POST /v1/evaluations` without
 * `options.emulator.outcomes` takes the plan of the first rule whose `match` fits.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT } from '../helpers.js';
import { runtime } from './support.js';

const DEFAULT_SCENARIO = JSON.parse(
  readFileSync(new URL('../../scenarios/default.json', import.meta.url), 'utf8'),
);

/** The default world with outcome rules. */
function withRules() {
  return runtime({
    scenario: {
      ...DEFAULT_SCENARIO,
      name: 'rules',
      outcome_rules: [
        {
          match: { spec_name: 'flaky' },
          outcomes: [{ fail: 'interrupted', at: 'planning' }, { succeed: { success_rate: 1 } }],
        },
        { match: { label: 'nightly' }, outcomes: [{ fail: 'verification_failed' }] },
        {
          match: { spec_name: 'strict', label: 'ci' },
          outcomes: [{ fail: 'spec_invalid', param: 'spec.tasks' }],
        },
      ],
    },
  });
}

type Rt = ReturnType<typeof runtime>;

/** Creates a run, advances past its end and answers it with its terminal transition. */
async function outcomeOf(rt: Rt, body: Record<string, unknown>) {
  const created = await rt.create(body);
  const { transitions } = await rt.advance(60);
  const end = transitions.filter((t: { resource: string }) => t.resource === created.id).at(-1);
  return { run: await rt.get(created.id), end };
}

test('a rule matched on spec.name gives its plan: attempt 1 interrupted in planning, the resume succeeds', async () => {
  const rt = withRules();
  const { run, end } = await outcomeOf(rt, { spec: { path: 'specs/flaky.py', name: 'flaky' } });
  expect(end).toMatchObject({ from: 'processing', to: 'failed', phase: 'planning' });
  expect(run).toMatchObject({
    status: 'failed',
    phase: 'planning',
    error: { code: 'interrupted', resumable: true },
  });
  expect((await rt.call('POST', `/v1/evaluations/${run.id}/resume`)).status).toBe(202);
  await rt.advance(60);
  expect(await rt.get(run.id)).toMatchObject({
    status: 'succeeded',
    result: { metrics: [expect.objectContaining({ id: 'success_rate', value: 1 })] },
  });
});

test('a rule matched on label gives its plan', async () => {
  const rt = withRules();
  const { run, end } = await outcomeOf(rt, {
    spec: { path: 'specs/pick.py', name: 'pick' },
    label: 'nightly',
  });
  expect(end).toMatchObject({ to: 'failed', phase: 'verifying' });
  expect(run).toMatchObject({
    status: 'failed',
    error: { code: 'verification_failed', resumable: true },
    result: { verified: false },
  });
});

test('a rule with spec_name and label needs both; the first fitting rule wins', async () => {
  const rt = withRules();
  const both = await outcomeOf(rt, { spec: { path: 's.py', name: 'strict' }, label: 'ci' });
  expect(both.run).toMatchObject({
    status: 'failed',
    phase: 'materializing',
    error: { code: 'spec_invalid', param: 'spec.tasks', resumable: false },
  });
  const nameOnly = await outcomeOf(rt, { spec: { path: 's.py', name: 'strict' } });
  expect(nameOnly.run.status).toBe('succeeded');
  const first = await outcomeOf(rt, { spec: { path: 'f.py', name: 'flaky' }, label: 'nightly' });
  expect(first.run.error.code).toBe('interrupted');
});

test('options.emulator.outcomes wins over a rule; a run no rule fits succeeds', async () => {
  const rt = withRules();
  const own = await outcomeOf(rt, {
    spec: { path: 'specs/flaky.py', name: 'flaky' },
    options: { emulator: { outcomes: [{ succeed: {} }] } },
  });
  expect(own.run.status).toBe('succeeded');
  const none = await outcomeOf(rt, { spec: { path: 'specs/x.py', name: 'x' }, label: 'other' });
  expect(none.run.status).toBe('succeeded');
});

test('runs seeded on the clock through the control API do not consult the rules (docs/runtime.md, Outcome plans)', async () => {
  const rt = withRules();
  const seeded = await rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
    spec: { path: 'specs/flaky.py', name: 'flaky' },
  });
  await rt.advance(60);
  expect((await rt.get(seeded.id)).status).toBe('succeeded');
});
