/**
 * `svc-emulator grade` as a process (issue 38): its exit statuses (0 every finding passes, 1 one
 * fails, 2 it cannot run), its output and the files of `--report`. test/lab/clients.test.ts grades
 * real clients; here the traffic is a few calls made by hand.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startEmulator } from '../../src/tools/harness/index.js';
import { runCli } from '../cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'grade-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('grade exits 1 on a failure, prints its evidence, writes FILE.json and FILE.md', async () => {
  const emu = await startEmulator({ controlToken: 'ctl-secret' });
  try {
    const acct = await emu.control.newAccount();
    await emu.control.createFault({
      match: { account: acct.account.id, operation: 'getCurrentKey' },
      respond: { status: 503 },
      times: 1,
    });
    const me = () => fetch(`${acct.apiUrl}/keys/me`, { headers: acct.headers });
    expect((await me()).status).toBe(503);
    await (await me()).arrayBuffer();
    const url = ['grade', '--url', emu.baseUrl, '--account', acct.account.id];

    // A 503 retried once: every judged finding passes.
    const ok = await runCli([...url, '--control-token', 'ctl-secret']);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout).toContain(
      `svc-emulator grade: account ${acct.account.id} (1 key, 1 call): 2 passed, 0 failed, 7 not judged, 0 reported`,
    );
    expect(ok.stdout).toMatch(/ {2}pass {7}key key_\w+ {2}retryable_retried: 1 of 1 retryable/);

    // A 409 sent again unchanged: one failure, with the two requests that show it.
    await emu.control.createFault({
      match: { account: acct.account.id, operation: 'getCurrentKey' },
      respond: { status: 409, code: 'not_cancelable' },
      times: 1,
    });
    expect((await me()).status).toBe(409);
    expect((await me()).status).toBe(200);
    const report = join(dir, 'grade.json');
    const bad = await runCli([...url, '--report', report], {
      EMULATOR_CONTROL_TOKEN: 'ctl-secret',
    });
    expect([bad.code, bad.stderr]).toEqual([1, '']);
    expect(bad.stdout).toMatch(
      /FAIL {7}key key_\w+ {2}final_not_resent: 1 of 1 final answer sent again unchanged\.\n {13}- fail: a 409 not_cancelable to GET \/v1\/keys\/me, sent again unchanged \(req_\w+ 409 at [^;]+; req_\w+ 200 at /,
    );
    expect(bad.stdout).toContain(`report: ${join(dir, 'grade')}.json and ${join(dir, 'grade')}.md`);
    const json = JSON.parse(readFileSync(join(dir, 'grade.json'), 'utf8'));
    expect(json).toMatchObject({ object: 'grade', exit_code: 1, summary: { failed: 1 } });
    expect(json.sources.client_report.object).toBe('client_report');
    const md = readFileSync(join(dir, 'grade.md'), 'utf8');
    expect(md).toMatch(/^# Grade: FAIL\n/);
    expect(md).toContain('## key key_');

    // Cannot run: exit 2, saying why.
    const noToken = await runCli(url);
    expect([noToken.code, noToken.stderr]).toEqual([
      2,
      expect.stringMatching(/refused the control token \(401\)/),
    ]);
    const ghost = await runCli([
      'grade',
      '--url',
      emu.baseUrl,
      '--account',
      'acct_nope',
      '--control-token',
      'ctl-secret',
    ]);
    expect([ghost.code, ghost.stderr]).toEqual([
      2,
      expect.stringMatching(/has no account acct_nope/),
    ]);
    const quiet = await emu.control.newAccount();
    const empty = await runCli([
      'grade',
      '--url',
      emu.baseUrl,
      '--account',
      quiet.account.id,
      '--control-token',
      'ctl-secret',
    ]);
    expect([empty.code, empty.stderr]).toEqual([2, expect.stringMatching(/nothing to grade/)]);
  } finally {
    await emu.stop();
  }
});

test('grade without its flags, with a bad URL, or with no emulator there exits 2; --help exits 0', async () => {
  const missing = await runCli(['grade', '--url', 'http://127.0.0.1:1']);
  expect([missing.code, missing.stderr]).toEqual([
    2,
    expect.stringMatching(/--account is required/),
  ]);
  const badUrl = await runCli(['grade', '--url', 'ftp://x', '--account', 'a']);
  expect([badUrl.code, badUrl.stderr]).toEqual([
    2,
    expect.stringMatching(/Invalid --url 'ftp:\/\/x'/),
  ]);
  const gone = await runCli(['grade', '--url', 'http://127.0.0.1:1', '--account', 'acct_1']);
  expect([gone.code, gone.stderr]).toEqual([
    2,
    expect.stringMatching(/cannot reach http:\/\/127\.0\.0\.1:1/),
  ]);
  const help = await runCli(['grade', '--help']);
  expect([help.code, help.stdout]).toEqual([
    0,
    expect.stringMatching(/^Usage: svc-emulator grade --url URL --account ID/),
  ]);
});
