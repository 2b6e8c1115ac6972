/**
 * The harness's error-handling lab methods (issue 38): a fault after the write, the client report
 * that names the duplicate it left, and a sweep read, listed and deleted, over a real server.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.stop());

const SPEC = { spec: { path: 'sdk/spec.yaml', name: 'lab' } };

test('clientReport names the duplicate a retry without its key made after a 502_after', async () => {
  const acct = await emu.control.newAccount();
  await emu.control.createFault({
    match: { account: acct.account.id, operation: 'createEvaluation' },
    respond: { status: 502, after: true },
    times: 1,
  });
  const post = () =>
    fetch(`${acct.apiUrl}/evaluations`, {
      method: 'POST',
      headers: { ...acct.headers, 'content-type': 'application/json' },
      body: JSON.stringify(SPEC),
    });
  expect((await post()).status).toBe(502);
  const second = (await (await post()).json()) as { id: string };

  const report = await acct.clientReport();
  expect(report).toMatchObject({ object: 'client_report', account: acct.account.id });
  const dup = report.keys[0]!.findings.find((f) => f.rule === 'no_duplicate_write')!;
  expect(dup.verdict).toBe('fail');
  expect(dup.cases[0]!.note).toContain(second.id);
  const byKey = await emu.control.clientReport({ account: acct.account.id, key: acct.key.id });
  expect(byKey.key).toBe(acct.key.id);
  const markdown = await emu.control.clientReportMarkdown({ account: acct.account.id });
  expect(markdown).toContain(`# Client report (account ${acct.account.id})`);
  expect(markdown).toContain('| A write whose answer was lost leaves no duplicate');
});

test('createSweep, getSweep, listSweeps and deleteSweep drive /_control/sweeps', async () => {
  const acct = await emu.control.newAccount();
  const sweep = await emu.control.createSweep({
    account: acct.account.id,
    operations: ['getCurrentKey'],
    faults: ['503'],
  });
  expect(sweep.summary).toMatchObject({ cells: 1, not_reached: 1 });
  const me = () => fetch(`${acct.apiUrl}/keys/me`, { headers: acct.headers });
  expect((await me()).status).toBe(503);
  expect((await me()).status).toBe(200);
  const read = await emu.control.getSweep(sweep.id);
  expect(read.matrix).toEqual([
    {
      operation: 'getCurrentKey',
      cells: [expect.objectContaining({ fault: '503', outcome: 'recovered' })],
    },
  ]);
  expect((await emu.control.listSweeps()).data.map((s) => s.id)).toContain(sweep.id);
  expect(await emu.control.deleteSweep(sweep.id)).toEqual({ id: sweep.id, deleted: true });
  await expect(emu.control.getSweep(sweep.id)).rejects.toMatchObject({ status: 404 });
});
