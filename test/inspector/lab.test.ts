/**
 * The error-handling lab in the inspector (issue 38), in Debian's headless chromium: beside the
 * coverage matrix, each fault sweep's matrix and the account's client report, read again as calls
 * arrive.
 */
import { expect, test } from 'vitest';
import { call, inspectorSetup, openInspector } from './support.js';

const ui = inspectorSetup();

test('the coverage view shows a sweep matrix and the client report beside the coverage matrix', async () => {
  const { account, key } = await ui.emulator.control.createAccount({ name: 'sdk-lab' });
  const secret = key.secret!;
  const base = ui.emulator.baseUrl;
  const sweep = await ui.emulator.control.createSweep({
    account: account.id,
    operations: ['getCurrentKey'],
    faults: ['503', 'drop'],
  });
  const { page, expectClean } = await openInspector(
    ui.browser,
    base,
    `view=coverage&account=${account.id}`,
  );
  const cell = (fault: string) =>
    page.locator(
      `[data-sweep="${sweep.id}"] tr[data-operation="getCurrentKey"] td[data-fault="${fault}"]`,
    );
  await expect(cell('503').getAttribute('data-outcome')).resolves.toBe('not_reached');
  await page.locator('#live.live').waitFor();

  // A 503 retried once, then a dropped connection left alone: recovered, then gave up.
  expect((await call(base, 'GET', '/v1/keys/me', { secret })).status).toBe(503);
  expect((await call(base, 'GET', '/v1/keys/me', { secret })).status).toBe(200);
  await expect(call(base, 'GET', '/v1/keys/me', { secret })).rejects.toThrow();
  await cell('drop').and(page.locator('[data-outcome="gave_up"]')).waitFor();
  await expect(cell('503').getAttribute('data-outcome')).resolves.toBe('recovered');

  const rule = page.locator(`[data-key="${key.id}"] tr[data-rule="retryable_retried"]`);
  await rule.and(page.locator('[data-verdict="fail"]')).waitFor();
  expect(await rule.textContent()).toContain('a dropped connection was not retried');
  await expect(
    page.locator(`[data-key="${key.id}"] tr[data-rule="backoff"]`).getAttribute('data-verdict'),
  ).resolves.toBe('not_judged');
  expectClean();
  await page.close();
});
