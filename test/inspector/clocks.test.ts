/**
 * Accounts, clocks and runs in the inspector, in Debian's headless chromium (issue 30): advancing
 * a clock from the page (its "next transition" buttons) moves a run to its next phase, as
 * `POST .../clock/advance` does; a clock moved from outside the page shows too (issue 35); a run
 * seeded from the page's form is on the account's clock.
 */
import { expect, test } from 'vitest';
import { inspectorSetup, openInspector, screenshot } from './support.js';

const ui = inspectorSetup();

const SPEC = { path: 'specs/pick_place.yaml', name: 'pick_place' };

test('advancing the clock from the page moves a run to its next phase', async () => {
  const { control } = ui.emulator;
  const { account } = await control.createAccount({ name: 'nightly' });
  const run = await control.seedRun(account.id, {
    kind: 'evaluation',
    spec: SPEC,
    label: 'nightly',
  });
  const { page, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    `view=runs&account=${account.id}`,
  );
  await page.locator(`tr[data-id="${run.id}"]`).click();
  const detail = page.locator('aside.detail');
  await detail.getByText('due 2026-01-01 00:00:00.500').waitFor();

  await detail.locator('[data-action="run-next-transition"]').click();
  await detail.locator('[data-run-phase]', { hasText: 'materializing' }).waitFor();
  const moved = await control.getClock(account.id);
  expect(moved.now).toBe('2026-01-01T00:00:00.500Z');
  await page
    .locator(`tr[data-id="${run.id}"] td[data-phase]`, { hasText: 'materializing' })
    .waitFor();

  // The accounts view's button does the same, for the account's earliest transition.
  await page.goto(`${ui.emulator.baseUrl}/_control/ui#view=accounts&account=${account.id}`);
  await page.locator('[data-action="next-transition"]').click();
  await page.getByText('Transitions applied').waitFor();
  expect(await page.locator('section.view').innerText()).toMatch(
    /processing → processing\s+planning/,
  );
  expect((await control.getClock(account.id)).now).toBe('2026-01-01T00:00:01.000Z');
  await page.getByRole('button', { name: '+1 s', exact: true }).click();
  await page.locator('[data-clock-now]', { hasText: '00:00:02.000' }).waitFor();
  await screenshot(page, 'accounts');

  await page.goto(`${ui.emulator.baseUrl}/_control/ui#view=runs&account=${account.id}`);
  await page.locator(`tr[data-id="${run.id}"]`).click();
  await detail.locator('ol.timeline li.future').first().waitFor();
  await screenshot(page, 'runs');
  expectClean();
  await page.close();
});

test('a run seeded from the form is on the clock, and its failure shows where it was planned', async () => {
  const { account } = await ui.emulator.control.createAccount({ name: 'seeding' });
  const { page, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    `view=runs&account=${account.id}`,
  );
  const form = page.locator('form.seed');
  await form.locator('select[name="kind"]').selectOption('evaluation');
  await form.locator('select[name="fail"]').selectOption('verification_failed');
  await form.locator('select[name="phase"]').selectOption('verifying');
  await form.getByRole('button', { name: 'Seed' }).click();
  const row = page.locator('table.runs tbody tr').first();
  await row.waitFor();
  const id = await row.getAttribute('data-id');
  expect(id).toMatch(/^eval_/);
  await ui.emulator.control.advanceClock(account.id, { seconds: 60 });
  await page.locator(`tr[data-id="${id}"] .badge`, { hasText: 'failed' }).waitFor();

  // The form sends what it is given; the emulator's error names the field.
  await form.locator('textarea[name="body"]').fill('{"spec": {"path": "specs/a.yaml"}}');
  await form.getByRole('button', { name: 'Seed' }).click();
  await form.locator('.error', { hasText: 'spec.name' }).waitFor();
  expectClean();
  await page.close();
});

test('the runs view follows a clock moved outside the page; a succeeded run shows no phase', async () => {
  const { control } = ui.emulator;
  const { account } = await control.createAccount({ name: 'outside' });
  const run = await control.seedRun(account.id, { kind: 'evaluation', spec: SPEC });
  const { page, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    `view=runs&account=${account.id}`,
  );
  const row = page.locator(`tr[data-id="${run.id}"]`);
  await row.click();
  const detail = page.locator('aside.detail');
  await detail.getByText('due 2026-01-01 00:00:00.500').waitFor();

  // The clock moves as a test suite beside the page moves it: the list and the pane follow.
  await control.advanceClock(account.id, { seconds: 1 });
  await row.locator('td[data-phase]', { hasText: 'planning' }).waitFor();
  await detail.locator('[data-run-phase]', { hasText: 'planning' }).waitFor();
  await control.advanceClock(account.id, { seconds: 60 });
  await row.locator('.badge', { hasText: 'succeeded' }).waitFor();
  await detail.locator('h2 .badge', { hasText: 'succeeded' }).waitFor();

  // The list, the pane and the timeline agree: a succeeded run has no phase (its API body's is null).
  expect(await row.locator('td[data-phase]').innerText()).toBe('');
  expect(await detail.locator('[data-run-phase]').innerText()).toBe('');
  const last = detail.locator('ol.timeline li').last();
  expect((await last.innerText()).trim()).toMatch(/00:00:05\.000 succeeded$/);
  await screenshot(page, 'runs-succeeded', { docs: false });
  expectClean();
  await page.close();
});
