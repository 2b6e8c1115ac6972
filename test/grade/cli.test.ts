/**
 * `svc-emulator grade` as a process (issue 38): its exit statuses (0 every finding passes, 1 one
 * fails, 2 it cannot run), its output and the files of `--report`. test/lab/clients.test.ts grades
 * real clients; here the traffic is a few calls made by hand.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, onTestFinished, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { runCli } from '../cli-process.js';
import { eventually } from '../wait.js';
import { type Received, startReceiver } from '../webhook-receiver.js';

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

/** An account whose endpoint, with `chaos`, reaches `receiver`; one event sent and answered. */
async function receiverTested(
  emu: RunningEmulator,
  answer: (r: Received) => number,
  chaos: Record<string, boolean>,
) {
  const hook = await startReceiver((_n, r) => answer(r));
  onTestFinished(() => hook.close());
  const acct = await emu.control.newAccount();
  const endpoint = await acct.seedWebhookEndpoint({ url: hook.url, chaos });
  hook.secret = endpoint.secret;
  // Another endpoint, without chaos and never tested: grade leaves it out.
  await acct.seedWebhookEndpoint({ url: 'http://127.0.0.1:2/untested' });
  await acct.triggerEvent('evaluation.succeeded', {
    data: { object: { id: 'eval_01KDVDNA0000000000000000EX', object: 'evaluation' } },
  });
  const sent = 1 + Object.keys(chaos).length;
  await eventually(
    async () => (hook.received.length === sent ? true : undefined),
    'every delivery answered',
  );
  await eventually(async () => {
    const report = await emu.control.receiverReport(endpoint.id);
    const judged = report.findings.reduce((n, f) => n + f.judged, 0);
    return judged === sent ? report : undefined;
  }, 'every answer recorded');
  return { acct, endpoint };
}

test("grade includes the receiver report of the account's endpoints with chaos: exit 1 when a receiver fails", async () => {
  const emu = await startEmulator();
  try {
    const chaos = { bad_signature: true, stale_timestamp: true };
    // A receiver that never verifies: it accepts the forged and the stale delivery.
    const naive = await receiverTested(emu, () => 204, chaos);
    const grade = (account: string, report?: string) =>
      runCli([
        'grade',
        '--url',
        emu.baseUrl,
        '--account',
        account,
        ...(report ? ['--report', report] : []),
      ]);
    const bad = await grade(naive.acct.account.id, join(dir, 'receiver'));
    expect([bad.code, bad.stderr]).toEqual([1, '']);
    const id = naive.endpoint.id;
    expect(bad.stdout).toContain(
      `svc-emulator grade: account ${naive.acct.account.id} (0 keys, 0 calls; 1 endpoint, 3 answers): 1 passed, 2 failed, 3 not judged, 0 reported`,
    );
    expect(bad.stdout).toMatch(
      new RegExp(
        `FAIL {7}endpoint ${id} {2}bad_signature: 1 of 1 answered otherwise than 4xx\\.\\n {13}- fail: bad_signature delivery whdl_\\d+ of evaluation\\.succeeded evt_\\w+ \\(webhook-id evt_\\w+\\), attempt 1\\.1 at 2026-01-01T00:00:00\\.000Z: 204\\n`,
      ),
    );
    expect(bad.stdout).toMatch(new RegExp(`FAIL {7}endpoint ${id} {2}stale_timestamp: 1 of 1`));
    expect(bad.stdout).toMatch(
      new RegExp(`pass {7}endpoint ${id} {2}genuine: 1 of 1 answered 2xx\\.`),
    );
    expect(bad.stdout).toMatch(
      new RegExp(
        `not judged endpoint ${id} {2}duplicate: none sent: not in the endpoint's chaos\\.`,
      ),
    );
    // The endpoint without chaos is not graded.
    expect(bad.stdout.match(/endpoint whe_\w+/g)!.every((s) => s === `endpoint ${id}`)).toBe(true);
    const json = JSON.parse(readFileSync(join(dir, 'receiver.json'), 'utf8'));
    expect(json).toMatchObject({ exit_code: 1, summary: { failed: 2 } });
    expect(
      json.sources.receiver_report.data.map((r: { endpoint_id: string }) => r.endpoint_id),
    ).toEqual([id]);
    expect(readFileSync(join(dir, 'receiver.md'), 'utf8')).toContain(
      `## endpoint ${id}: Forged deliveries refused`,
    );

    // A receiver that verifies as the Standard Webhooks libraries do passes: exit 0.
    const careful = await receiverTested(emu, (r) => (r.verified ? 204 : 401), chaos);
    const ok = await grade(careful.acct.account.id);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout).toContain('3 passed, 0 failed');
    expect(ok.stdout).toMatch(/pass {7}endpoint whe_\w+ {2}bad_signature: 1 of 1 answered 4xx\./);
  } finally {
    await emu.stop();
  }
});
