/** The harness's typed methods of the routes the inspector reads (docs/testing.md). */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.stop());

test('the list methods read accounts, keys, runs, kinds, endpoints and one journaled call', async () => {
  const { control } = emu;
  const a = await control.newAccount({ name: 'listed' });
  expect((await control.listAccounts({ limit: 1 })).data[0]?.id).toBe(a.account.id);
  expect((await control.listKeys(a.account.id)).data.map((k) => k.name)).toEqual(['default']);
  const run = await a.seedRun({ kind: 'evaluation', spec: { path: 's.yaml', name: 's' } });
  const runs = await control.listRuns(a.account.id, { kind: 'evaluation' });
  expect(runs.data.map((r) => r.id)).toEqual([run.id]);
  expect(runs.next_transition_at).toBe('2026-01-01T00:00:00.500Z');
  const detail = await control.getRunDetail(run.id);
  expect(detail.timeline[0]).toMatchObject({ status: 'queued', past: true });
  expect((await control.listKinds()).data.some((k) => k.kind === 'twin')).toBe(true);
  const endpoint = await a.seedWebhookEndpoint({ url: 'http://127.0.0.1:2/h' });
  expect((await control.listWebhookEndpoints(a.account.id)).data.map((e) => e.id)).toEqual([
    endpoint.id,
  ]);
  const res = await fetch(`${a.apiUrl}/keys/me`, { headers: a.headers });
  const call = await control.getRequest(res.headers.get('x-request-id')!);
  expect(call.detail?.request.headers.authorization).toBe('Bearer [masked]');
  const rule = await control.createFault({ respond: { status: 503 } });
  const changed = await control.replaceFault(rule.id, { respond: { status: 502 } });
  expect(changed).toMatchObject({ id: rule.id, respond: { status: 502 } });
  await control.clearFaults();
});
