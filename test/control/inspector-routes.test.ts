/**
 * Control calls the inspector's actions make that the other control tests do not cover (issue
 * 30): changing a fault rule in place, the coverage report as Markdown, deliveries newest first.
 */
import { expect, onTestFinished, test } from 'vitest';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../helpers.js';

type Emu = ReturnType<typeof testEmulator>;
const ctl = (emu: Emu, method: string, path: string, body?: unknown) =>
  emu.api(method, `/_control${path}`, { secret: null, body });

test('PUT /_control/faults/{id} changes a rule in place: same id and order, counters from zero', async () => {
  const emu = testEmulator();
  const first = await emu.control('POST', '/faults', {
    match: { operation: 'getCurrentKey' },
    respond: { status: 503 },
  });
  const second = await emu.control('POST', '/faults', { respond: { status: 429 } });
  await emu.api('GET', '/v1/keys/me');
  const changed = await ctl(emu, 'PUT', `/faults/${first.id}`, {
    match: { operation: 'getCurrentKey' },
    respond: { status: 502 },
    times: 1,
  });
  expect(changed.status).toBe(200);
  expect(changed.json).toMatchObject({
    id: first.id,
    created_at: first.created_at,
    respond: { status: 502 },
    times: 1,
    hits: 0,
    remaining: 1,
  });
  expect((await emu.api('GET', '/v1/keys/me')).status).toBe(502);
  const rules = (await ctl(emu, 'GET', '/faults')).json.data;
  expect(rules.map((r: { id: string }) => r.id)).toEqual([first.id, second.id]);
  expectError(
    await ctl(emu, 'PUT', `/faults/${first.id}`, { respond: { status: 418 } }),
    400,
    'parameter_invalid',
    'respond.status',
  );
});

test('PUT /_control/faults/{id} of an id no rule has installs the rule under it, last in match order', async () => {
  const emu = testEmulator();
  const first = await emu.control('POST', '/faults', { respond: { status: 503 } });
  const put = await ctl(emu, 'PUT', '/faults/flt_mine', {
    match: { method: 'POST' },
    respond: { drop: true },
  });
  expect(put.status).toBe(201);
  expect(put.json).toMatchObject({ id: 'flt_mine', respond: { drop: true }, hits: 0 });
  const rules = (await ctl(emu, 'GET', '/faults')).json.data;
  expect(rules.map((r: { id: string }) => r.id)).toEqual([first.id, 'flt_mine']);
  expectError(
    await ctl(emu, 'PUT', '/faults/rule-1', { respond: { status: 502 } }),
    400,
    'parameter_invalid',
    'fault_id',
  );
});

test('GET /_control/coverage?format=markdown answers the report as the --coverage-report file has it', async () => {
  const emu = testEmulator();
  await emu.api('GET', '/v1/keys/me');
  const res = await ctl(emu, 'GET', `/coverage?account=${DEFAULT_ACCOUNT}&format=markdown`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  expect(res.text).toMatch(/^# Coverage report \(account acct_0+1\)/);
  expect(res.text).toContain('### GET /v1/keys/me (`getCurrentKey`): 1 call');
  expectError(await ctl(emu, 'GET', '/coverage?format=html'), 400, 'parameter_invalid', 'format');
});

test('GET /_control/webhook_deliveries?order=newest lists the most recent first', async () => {
  const emu = testEmulator();
  onTestFinished(() => emu.emulator.close());
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: 'http://127.0.0.1:2/h',
  });
  const event = {
    type: 'evaluation.succeeded',
    data: { object: { id: 'eval_x', object: 'evaluation' } },
  };
  for (let i = 0; i < 3; i++)
    await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/events`, event);
  const oldest = (await ctl(emu, 'GET', '/webhook_deliveries')).json.data.map(
    (d: { id: string }) => d.id,
  );
  const newest = (await ctl(emu, 'GET', '/webhook_deliveries?order=newest&limit=2')).json;
  expect(newest.data.map((d: { id: string }) => d.id)).toEqual([oldest[2], oldest[1]]);
  const rest = (
    await ctl(emu, 'GET', `/webhook_deliveries?order=newest&after=${newest.next_cursor}`)
  ).json;
  expect(rest.data.map((d: { id: string }) => d.id)).toEqual([oldest[0]]);
});
