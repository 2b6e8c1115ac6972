/**
 * Fault rules in the inspector, in Debian's headless chromium (issue 30): a rule added from the
 * page's form answers the next call; the form's values are validated by the emulator, whose error
 * the form shows at the field it names; a rule is changed and deleted from the page.
 */
import { expect, test } from 'vitest';
import { call, inspectorSetup, openInspector, screenshot } from './support.js';

const ui = inspectorSetup();

test('a fault rule added from the page answers the next call', async () => {
  const { account, key } = await ui.emulator.control.createAccount({ name: 'retries' });
  const { page, expectClean } = await openInspector(ui.browser, ui.emulator.baseUrl, 'view=faults');
  const form = page.locator('form.fault-form');
  await form.locator('input[name="match.operation"]').fill('getCurrentKey');
  await form.locator('input[name="match.account"]').fill(account.id);
  await form.locator('select[name="respond.status"]').selectOption('503');
  await form.locator('input[name="respond.retry_after"]').fill('2');
  await form.locator('input[name="times"]').fill('1');
  await form.getByRole('button', { name: 'Add rule' }).click();
  await page.locator('table.faults tbody tr').first().waitFor();
  const [rule] = (await ui.emulator.control.listFaults()).data;
  expect(rule).toMatchObject({
    match: { operation: 'getCurrentKey', account: account.id },
    respond: { status: 503, retry_after: 2 },
    times: 1,
  });

  const faulted = await call(ui.emulator.baseUrl, 'GET', '/v1/keys/me', { secret: key.secret });
  expect(faulted.status).toBe(503);
  expect(faulted.headers['retry-after']).toBe('2');
  const [entry] = (await ui.emulator.control.listRequests({ account: account.id })).data;
  expect(entry?.fault_id).toBe(rule!.id);
  // Its counters follow the calls it answered.
  await page.locator(`[data-hits="${rule!.id}"]`, { hasText: '1' }).waitFor();
  expect(
    (await call(ui.emulator.baseUrl, 'GET', '/v1/keys/me', { secret: key.secret })).status,
  ).toBe(200);

  // The form sends what it is given; the emulator's error marks the field it names.
  await form.locator('input[name="probability"]').fill('2');
  await form.getByRole('button', { name: 'Add rule' }).click();
  await form.locator('.error', { hasText: 'probability' }).waitFor();
  await expect(form.locator('input[name="probability"].invalid').count()).resolves.toBe(1);
  await form.locator('input[name="probability"]').fill('');
  await form.locator('input[name="match.route"]').fill('/v1/evaluations/{run_id}/resume');
  await form.locator('input[name="match.operation"]').fill('');
  await form.locator('input[name="match.account"]').fill('');
  await form.locator('select[name="respond.status"]').selectOption('409');
  await form.locator('input[name="respond.code"]').fill('not_resumable');
  await form.locator('input[name="respond.retry_after"]').fill('');
  await form.locator('input[name="times"]').fill('');
  await form.locator('input[name="skip"]').fill('1');
  await form.getByRole('button', { name: 'Add rule' }).click();
  await page.locator('table.faults tbody tr').nth(1).waitFor();
  await screenshot(page, 'faults');
  expectClean();
  await page.close();
});

test('a rule is changed and deleted from the page', async () => {
  await ui.emulator.control.clearFaults();
  const rule = await ui.emulator.control.createFault({
    match: { method: 'GET' },
    respond: { status: 502 },
  });
  const { page, expectClean } = await openInspector(ui.browser, ui.emulator.baseUrl, 'view=faults');
  await page.locator('table.faults tbody tr').first().getByRole('button', { name: 'Edit' }).click();
  const form = page.locator('form.fault-form', { hasText: `Change ${rule.id}` });
  await form.waitFor();
  await expect(form.locator('input[name="match.method"]').inputValue()).resolves.toBe('GET');
  await form.locator('select[name="respond_kind"]').selectOption('delay');
  await form.locator('input[name="respond.delay_ms"]').fill('10');
  await form.getByRole('button', { name: 'Save' }).click();
  await page.locator('table.faults', { hasText: 'delay 10 ms' }).waitFor();
  expect((await ui.emulator.control.listFaults()).data).toEqual([
    expect.objectContaining({ id: rule.id, respond: { delay_ms: 10 } }),
  ]);
  await page
    .locator('table.faults tbody tr')
    .first()
    .getByRole('button', { name: 'Delete' })
    .click();
  await page.getByText('No fault rules').waitFor();
  expect((await ui.emulator.control.listFaults()).data).toEqual([]);
  expectClean();
  await page.close();
});

test('a rule added with an account chosen at the top applies to that account only', async () => {
  await ui.emulator.control.clearFaults();
  const chosen = await ui.emulator.control.createAccount({ name: 'chosen' });
  const unrelated = await ui.emulator.control.createAccount({ name: 'unrelated' });
  const { page, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    `view=faults&account=${chosen.account.id}`,
  );
  const form = page.locator('form.fault-form');
  // The form says whom the rule is for before it is sent.
  await expect(form.locator('input[name="match.account"]').inputValue()).resolves.toBe(
    chosen.account.id,
  );
  await form.locator('input[name="match.operation"]').fill('getCurrentKey');
  await form.locator('select[name="respond.status"]').selectOption('503');
  await form.getByRole('button', { name: 'Add rule' }).click();
  await page.locator('table.faults tbody tr').first().waitFor();
  expect((await ui.emulator.control.listFaults()).data).toEqual([
    expect.objectContaining({
      match: { operation: 'getCurrentKey', account: chosen.account.id },
    }),
  ]);
  const base = ui.emulator.baseUrl;
  expect((await call(base, 'GET', '/v1/keys/me', { secret: unrelated.key.secret })).status).toBe(
    200,
  );
  expect((await call(base, 'GET', '/v1/keys/me', { secret: chosen.key.secret })).status).toBe(503);
  await page.locator('[data-hits]', { hasText: '1' }).waitFor();
  await screenshot(page, 'faults-account', { docs: false });
  expectClean();
  await page.close();
});
