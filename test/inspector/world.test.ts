/**
 * What a LocalStack or MockServer dashboard user looks for (issue 35), in Debian's headless
 * chromium: an account and a key made from the page (their secrets shown once) and a key revoked;
 * the world reset, a scenario loaded, a snapshot saved, downloaded and restored, each a control
 * call a test could make.
 */
import { text } from 'node:stream/consumers';
import { expect, test } from 'vitest';
import { call, inspectorSetup, openInspector, screenshot } from './support.js';

const ui = inspectorSetup();

const SPEC = { path: 'specs/pick_place.yaml', name: 'pick_place' };

test('an account and a key made from the page work; a key revoked there answers 401', async () => {
  const base = ui.emulator.baseUrl;
  const { page, expectClean } = await openInspector(ui.browser, base, 'view=accounts');
  const accountForm = page.locator('form.account-form');
  await accountForm.locator('input[name="name"]').fill('made-here');
  await accountForm.getByRole('button', { name: 'Make the account and its key' }).click();
  const secret = page.locator('.secret [data-secret]');
  await secret.waitFor();
  const made = await call(base, 'GET', '/v1/keys/me', { secret: await secret.innerText() });
  expect(made.status).toBe(200);
  const { data } = await ui.emulator.control.listRequests({ order: 'newest', limit: 1 });
  const account = data[0]!.account_id!;
  expect((await ui.emulator.control.getAccount(account)).name).toBe('made-here');

  await page.locator('select#account').selectOption(account);
  // The panel of the account chosen (before, the oldest one's showed, with a form of its own).
  await page.locator('.detail h2', { hasText: 'made-here' }).waitFor();
  const keyForm = page.locator('form.key-form');
  // The emulator validates what the form sends, and names the field.
  await keyForm.locator('input[name="key_name"]').fill('reader');
  await keyForm.locator('input[name="scopes"]').fill('nope:read');
  await keyForm.getByRole('button', { name: 'Make a key' }).click();
  await keyForm.locator('.error', { hasText: 'scopes' }).waitFor();
  await keyForm.locator('input[name="scopes"]').fill('evaluations:read');
  await keyForm.getByRole('button', { name: 'Make a key' }).click();
  await page.locator('.secret', { hasText: 'Key reader' }).waitFor();
  const reader = await secret.innerText();
  const base2 = (method: string, path: string, body?: unknown) =>
    call(base, method, path, { secret: reader, body });
  expect((await base2('GET', '/v1/evaluations')).status).toBe(200);
  expect((await base2('POST', '/v1/evaluations', { spec: SPEC })).json.error.code).toBe(
    'missing_scope',
  );
  await page.locator('table.keys tr', { hasText: 'reader' }).getByRole('button').click();
  await page.locator('table.keys tr', { hasText: 'revoked' }).waitFor();
  expect((await base2('GET', '/v1/evaluations')).status).toBe(401);
  expectClean();
  await page.close();
});

test('reset, a scenario loaded, a snapshot saved, downloaded and restored from the page', async () => {
  const { control } = ui.emulator;
  const { account } = await control.createAccount({ name: 'ci-run-7' });
  await control.seedRun(account.id, { kind: 'evaluation', spec: SPEC });
  const { page, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    `view=world&account=${account.id}`,
  );
  // Each button that replaces state asks first.
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    return dialog.accept();
  });
  const done = page.locator('.done p.ok');

  const form = page.locator('form.snapshot-form');
  await form.locator('input[name="snapshot"]').fill('before-ci');
  await form.getByRole('button', { name: 'Save a snapshot' }).click();
  await done.filter({ hasText: 'Saved before-ci.' }).waitFor();
  const row = page.locator('table.snapshots tr', { hasText: 'before-ci' });
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('before-ci.snapshot.json');
  expect(JSON.parse(await text(await file.createReadStream()))).toMatchObject({
    format: 'svc-emulator-snapshot',
  });

  // The account's own reset empties its runs and leaves the rest.
  await page.getByRole('button', { name: 'Reset ci-run-7 only' }).click();
  await done.filter({ hasText: `Reset ${account.id}.` }).waitFor();
  expect((await control.getAccount(account.id)).name).toBe('ci-run-7');
  const runs = await call(ui.emulator.baseUrl, 'GET', `/_control/accounts/${account.id}/runs`);
  expect(runs.json.data).toEqual([]);

  await page.locator('table.scenarios tr', { hasText: 'rate-limited' }).getByRole('button').click();
  await done.filter({ hasText: 'Loaded rate-limited.' }).waitFor();
  expect((await control.listScenarios()).loaded).toBe('rate-limited');
  await page.getByRole('button', { name: 'Reset everything' }).click();
  await done.filter({ hasText: 'Reset everything to rate-limited.' }).waitFor();

  await page
    .locator('table.snapshots tr', { hasText: 'before-ci' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await done.filter({ hasText: 'Restored before-ci.' }).waitFor();
  expect((await control.getAccount(account.id)).name).toBe('ci-run-7');
  expect(asked).toEqual([
    `Reset the account ci-run-7 (${account.id})?`,
    'Replace the whole world with the scenario rate-limited?',
    'Reset the whole world to the scenario rate-limited?',
    'Put the whole world back as before-ci holds it?',
  ]);
  await screenshot(page, 'world');
  expectClean();
  await page.close();
});
