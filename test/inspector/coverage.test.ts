/**
 * The coverage matrix in the inspector, in Debian's headless chromium (issue 30): an outcome never
 * seen is marked so, and marked seen (with its count) once a call produces it, without a reload;
 * inferred outcomes are told apart; the report downloads as Markdown.
 */
import { text } from 'node:stream/consumers';
import { expect, test } from 'vitest';
import { startEmulator } from '../../src/tools/harness/index.js';
import { call, inspectorSetup, openInspector, screenshot } from './support.js';

const ui = inspectorSetup();

test('the coverage matrix marks a status seen after a call produces it', async () => {
  const { account, key } = await ui.emulator.control.createAccount({ name: 'sdk-suite' });
  const secret = key.secret!;
  const base = ui.emulator.baseUrl;
  const run = await ui.emulator.control.seedRun(account.id, {
    kind: 'evaluation',
    spec: { path: 'specs/a.yaml', name: 'a' },
  });
  await call(base, 'POST', `/v1/evaluations/${run.id}/cancel`, { secret });
  await call(base, 'POST', `/v1/evaluations/${run.id}/resume`, { secret });
  await call(base, 'GET', '/v1/evaluations?limit=500', { secret });
  const { page, expectClean } = await openInspector(
    ui.browser,
    base,
    `view=coverage&account=${account.id}`,
  );
  const row = page.locator('tr[data-operation="getCurrentKey"]');
  const ok = row.locator('[data-outcome="200"]');
  await expect(ok.getAttribute('data-seen')).resolves.toBe('0');
  expect(await ok.getAttribute('class')).toContain('never');
  await page.locator('#live.live').waitFor();

  await call(base, 'GET', '/v1/keys/me', { secret });
  await row.locator('[data-outcome="200"][data-seen="1"]').waitFor();
  expect(await ok.getAttribute('class')).toContain('seen');
  // Inferred outcomes (the API document does not name them) are marked apart.
  const inferred = page.locator(
    'tr[data-operation="createEvaluation"] [data-outcome="409 idempotency_key_reused"]',
  );
  expect(await inferred.getAttribute('class')).toContain('inferred');
  await expect(
    page
      .locator('tr[data-operation="resumeEvaluation"] [data-outcome="409 not_resumable"]')
      .getAttribute('data-seen'),
  ).resolves.toBe('1');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download Markdown' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('coverage.md');
  // Read as a stream: the browser is connected to, and its files are not on this side.
  const markdown = await text(await download.createReadStream());
  expect(markdown).toContain(`# Coverage report (account ${account.id})`);
  expect(markdown).toContain('### GET /v1/keys/me (`getCurrentKey`): 1 call');
  await page.getByPlaceholder('filter operations').fill('evaluation');
  await screenshot(page, 'coverage');
  expectClean();
  await page.close();
});

test('with --control-token the page asks for the token once, then shows the world', async () => {
  const guarded = await startEmulator({ controlToken: 'sesame' });
  try {
    const { page, expectClean } = await openInspector(ui.browser, guarded.baseUrl, 'view=accounts');
    const dialog = page.locator('#token-dialog');
    await dialog.locator('input').fill('sesame');
    await dialog.getByRole('button', { name: 'Use this token' }).click();
    await page
      .locator('section.view')
      .getByText('acct_00000000000000000000000001')
      .first()
      .waitFor();
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.locator('#live.live').waitFor();
    expect(await dialog.isVisible()).toBe(false);
    expectClean();
    await page.close();
  } finally {
    await guarded.stop();
  }
});
