/**
 * The inspector's live request view in Debian's headless chromium (issue 30): a call a test makes
 * appears at once, pushed by the journal's stream (the page asks the list route nothing more), and
 * its detail pane shows the request, the answer with secrets masked, and why an error happened.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/testing/index.js';
import { call, inspectorBrowser, openInspector, screenshot } from './support.js';

let browser: Browser;
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator();
  browser = await inspectorBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await emulator?.stop();
});

test('a request made by a test appears in the live view, pushed by the stream', {
  timeout: 60_000,
}, async () => {
  const { account, key } = await emulator.control.createAccount({ name: 'sdk-tests' });
  const { page, requests, expectClean } = await openInspector(
    browser,
    emulator.baseUrl,
    `view=requests&account=${account.id}`,
  );
  const listCalls = () => requests.filter((p) => p === '/_control/requests').length;
  await page.locator('#live.live').waitFor();
  // The first page, read once the stream is open; nothing after it.
  await expect.poll(listCalls).toBe(1);
  const sent = Date.now();
  const answer = await call(emulator.baseUrl, 'GET', '/v1/keys/me', { secret: key.secret });
  const row = page.locator(`tr[data-id="${answer.headers['x-request-id']}"]`);
  await row.waitFor();
  console.log(
    `inspector: the call showed in the live view ${Date.now() - sent} ms after it was sent`,
  );
  // The key's name is read once for its account, and filled in.
  await row.locator('td[data-key]', { hasText: 'default' }).waitFor();
  await expect(row.innerText()).resolves.toMatch(
    /sdk-tests\s+default\s+GET\s+\/v1\/keys\/me\s+200/,
  );
  // Pushed, not fetched again: the page made no further list call.
  expect(listCalls()).toBe(1);
  expectClean();
  await page.close();
});

test('the detail pane shows the request, the answer with secrets masked, and why an error happened', {
  timeout: 60_000,
}, async () => {
  // An emulator of its own: the request ids the screenshot shows depend on every call before.
  const emulator = await startEmulator();
  onTestFinished(() => emulator.stop());
  const { account, key } = await emulator.control.createAccount({ name: 'ci-job-42' });
  const base = emulator.baseUrl;
  const secret = key.secret!;
  await call(base, 'GET', '/v1/keys/me', { secret });
  const hook = await call(base, 'POST', '/v1/webhook_endpoints', {
    secret,
    body: { url: 'http://127.0.0.1:2/hooks' },
  });
  await call(base, 'POST', '/v1/evaluations', {
    secret,
    body: { spec: { path: 'specs/pick.yaml' } },
  });
  await call(base, 'GET', '/v1/evaluations/eval_01KDVDNA0000000000000000XX', { secret });
  const rule = await emulator.control.createFault({
    match: { operation: 'getCurrentKey', account: account.id },
    respond: { status: 503 },
    times: 1,
  });
  const faulted = await call(base, 'GET', '/v1/keys/me', { secret });
  const { page, expectClean } = await openInspector(
    browser,
    base,
    `view=requests&account=${account.id}`,
  );

  await page.locator(`tr[data-id="${hook.headers['x-request-id']}"]`).click();
  const detail = page.locator('aside.detail');
  await detail.getByText('Answer').waitFor();
  const shown = await detail.innerText();
  expect(shown).toContain('Bearer [masked]');
  expect(shown).toContain('"secret": "[masked]"');
  expect(shown).not.toContain(secret);
  expect(shown).not.toContain(hook.json.secret);

  await page.locator(`tr[data-id="${faulted.headers['x-request-id']}"]`).click();
  await detail.locator('.why').waitFor();
  expect(await detail.locator('.why').innerText()).toContain(`fault rule ${rule.id}`);

  await page.locator('tr', { hasText: 'parameter_invalid' }).click();
  await detail.locator('.why', { hasText: 'spec.name' }).waitFor();
  expect(await detail.locator('.why').innerText()).toMatch(
    /code parameter_invalid[\s\S]*about spec\.name/,
  );
  await screenshot(page, 'requests');
  expectClean();
  await page.close();
});
