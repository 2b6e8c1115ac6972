/**
 * The inspector's live request view in Debian's headless chromium (issue 30): a call a test makes
 * appears at once, pushed by the journal's stream (the page asks the list route nothing more), and
 * its detail pane shows the request, the answer with secrets masked, and why an error happened;
 * a call copies as curl and is found by its request id; the docs page's own requests are not
 * journaled (issue 35).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, onTestFinished, test } from 'vitest';
import { startEmulator } from '../../src/tools/harness/index.js';
import { openPage } from '../chromium.js';
import { call, inspectorSetup, openInspector, screenshot } from './support.js';

const run = promisify(execFile);

const ui = inspectorSetup();

test('a request made by a test appears in the live view, pushed by the stream', async () => {
  const { account, key } = await ui.emulator.control.createAccount({ name: 'sdk-tests' });
  const { page, requests, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    `view=requests&account=${account.id}`,
  );
  const listCalls = () => requests.filter((p) => p === '/_control/requests').length;
  await page.locator('#live.live').waitFor();
  // The first page, read once the stream is open; nothing after it.
  await expect.poll(listCalls).toBe(1);
  const sent = Date.now();
  const answer = await call(ui.emulator.baseUrl, 'GET', '/v1/keys/me', { secret: key.secret });
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

test('the detail pane shows the request, the answer with secrets masked, and why an error happened', async () => {
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
    ui.browser,
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

test('"Copy as curl" gives a command that makes the call again', async () => {
  const { account, key } = await ui.emulator.control.createAccount({ name: 'curl' });
  const secret = key.secret!;
  const body = { spec: { path: "specs/it's.yaml", name: 'quoted' }, label: 'nightly' };
  const first = await call(ui.emulator.baseUrl, 'POST', '/v1/evaluations?expand=none', {
    secret,
    body,
    headers: { 'idempotency-key': 'curl-1' },
  });
  expect(first.status).toBe(201);
  const { page, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    `view=requests&account=${account.id}`,
  );
  await page.locator(`tr[data-id="${first.headers['x-request-id']}"]`).click();
  const detail = page.locator('aside.detail');
  await detail.getByRole('button', { name: 'Copy as curl' }).click();
  const command = await detail.locator('pre.curl').innerText();
  expect(command).toContain(`'${ui.emulator.baseUrl}/v1/evaluations?expand=none'`);
  expect(command).toContain('"authorization: Bearer $API_KEY"');
  expect(command).not.toContain(secret);
  await screenshot(page, 'requests-curl', { docs: false });
  expectClean();
  await page.close();

  // Run as a user would paste it: the same key and body replay the first answer.
  const { stdout } = await run('bash', ['-c', `${command} -s -D -`], {
    env: { ...process.env, API_KEY: secret },
  });
  expect(stdout).toMatch(/^idempotent-replayed: true\r?$/im);
  expect(stdout).toContain(`"id":"${first.json.id}"`);
});

test('a call is found by its X-Request-Id, as an SDK logs it', async () => {
  const { account, key } = await ui.emulator.control.createAccount({ name: 'find-me' });
  const secret = key.secret!;
  const wanted = await call(ui.emulator.baseUrl, 'GET', '/v1/evaluations/eval_nope', { secret });
  for (let i = 0; i < 60; i++) await call(ui.emulator.baseUrl, 'GET', '/v1/keys/me', { secret });
  const { page, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    `view=requests&account=${account.id}`,
  );
  const find = page.locator('form.find input[name="request_id"]');
  // Pasted from a log line: the header and all.
  await find.fill(`X-Request-Id: ${wanted.headers['x-request-id']}`);
  await find.press('Enter');
  const detail = page.locator('aside.detail');
  await detail.locator('h2', { hasText: '/v1/evaluations/eval_nope' }).waitFor();
  expect(await detail.innerText()).toContain(String(wanted.headers['x-request-id']));
  await find.fill('req_00000000000000000000000000');
  await find.press('Enter');
  await detail.locator('.error', { hasText: '404' }).waitFor();
  expectClean();
  await page.close();
});

test("the docs page's own requests are not in the journal nor counted", async () => {
  const emulator = await startEmulator();
  onTestFinished(() => emulator.stop());
  const docs = await openPage(ui.browser);
  await docs.goto(`${emulator.baseUrl}/docs`);
  await docs.locator('.opblock-tag').first().waitFor();
  for (const path of ['/openapi.json', '/favicon.ico', '/'])
    await docs.goto(emulator.baseUrl + path);
  await docs.close();
  const { key } = await emulator.control.createAccount({ name: 'sdk' });
  const sdk = await call(emulator.baseUrl, 'GET', '/v1/keys/me', { secret: key.secret });

  const { page, expectClean } = await openInspector(ui.browser, emulator.baseUrl, 'view=requests');
  await page.locator(`tr[data-id="${sdk.headers['x-request-id']}"]`).waitFor();
  await expect(page.locator('table.requests tbody tr').count()).resolves.toBe(1);
  await page.locator('#nav a[data-view="coverage"]').click();
  await page.getByText('1 call (0 to no operation)').waitFor();
  expectClean();
  await page.close();
});
