/**
 * The journal as the inspector reads it (issue 30): newest first a page at a time, by status
 * class, and one call with its request and answer, every secret masked.
 */
import { expect, test } from 'vitest';
import {
  DEFAULT_ACCOUNT,
  DEFAULT_SECRET,
  expectError,
  testEmulator,
} from '../../../test/helpers.js';
import { JournalDetails } from './journal-details.js';

type Emu = ReturnType<typeof testEmulator>;
const ctl = (emu: Emu, method: string, path: string) =>
  emu.api(method, `/_control${path}`, { secret: null });
const ids = (list: { data: { request_id: string }[] }) => list.data.map((e) => e.request_id);

test('GET /_control/requests?order=newest pages newest first, after a request id', async () => {
  const emu = testEmulator();
  const made: string[] = [];
  for (let i = 0; i < 3; i++)
    made.push((await emu.api('GET', '/v1/keys/me')).headers.get('x-request-id')!);
  const first = (await ctl(emu, 'GET', '/requests?order=newest&limit=2')).json;
  expect(ids(first)).toEqual([made[2], made[1]]);
  expect(first.has_more).toBe(true);
  const next = (await ctl(emu, 'GET', `/requests?order=newest&limit=2&after=${made[1]}`)).json;
  expect(ids(next)).toEqual([made[0]]);
  expect(next.has_more).toBe(false);
  const oldest = (await ctl(emu, 'GET', `/requests?after=${made[0]}`)).json;
  expect(ids(oldest)).toEqual([made[1], made[2]]);
  expectError(await ctl(emu, 'GET', '/requests?after=req_nope'), 400, 'parameter_invalid', 'after');
});

test('GET /_control/requests?status_class= keeps one class of statuses', async () => {
  const emu = testEmulator();
  await emu.api('GET', '/v1/keys/me');
  await emu.api('GET', '/v1/keys/me', { secret: null });
  await emu.api('GET', '/v1/keys/me', { headers: { 'x-emulator-fault': '503' } });
  const statuses = async (cls: string) =>
    (await ctl(emu, 'GET', `/requests?status_class=${cls}`)).json.data.map(
      (e: { status: number }) => e.status,
    );
  expect(await statuses('2xx')).toEqual([200]);
  expect(await statuses('4xx')).toEqual([401]);
  expect(await statuses('5xx')).toEqual([503]);
  expectError(
    await ctl(emu, 'GET', '/requests?status_class=6xx'),
    400,
    'parameter_invalid',
    'status_class',
  );
});

test('GET /_control/requests/{id} shows the request and the answer with the key and secrets masked', async () => {
  const emu = testEmulator();
  const res = await emu.api('POST', '/v1/webhook_endpoints?x=1', {
    body: { url: 'http://127.0.0.1:2/h' },
  });
  const signing = res.json.secret as string;
  const entry = (await ctl(emu, 'GET', `/requests/${res.headers.get('x-request-id')}`)).json;
  expect(entry).toMatchObject({ method: 'POST', status: 201, account_id: DEFAULT_ACCOUNT });
  expect(entry.detail.request.query).toBe('x=1');
  expect(entry.detail.request.headers.authorization).toBe('Bearer [masked]');
  expect(JSON.parse(entry.detail.request.body)).toEqual({ url: 'http://127.0.0.1:2/h' });
  expect(entry.detail.response.headers['content-type']).toBe('application/json');
  expect(JSON.parse(entry.detail.response.body)).toMatchObject({
    url: 'http://127.0.0.1:2/h',
    secret: '[masked]',
  });
  const text = JSON.stringify(entry);
  expect(text).not.toContain(signing);
  expect(text).not.toContain(DEFAULT_SECRET);
  expectError(await ctl(emu, 'GET', '/requests/req_nope'), 404, 'resource_not_found', 'request_id');
});

test('an error call shows why: its envelope with message and param, and the fault rule that answered', async () => {
  const emu = testEmulator();
  const invalid = await emu.api('POST', '/v1/evaluations', { body: { spec: 1 } });
  const why = (await ctl(emu, 'GET', `/requests/${invalid.headers.get('x-request-id')}`)).json;
  expect(JSON.parse(why.detail.response.body).error).toMatchObject({
    code: 'parameter_invalid',
    param: 'spec',
  });
  const rule = await emu.control('POST', '/faults', { respond: { status: 502 } });
  const faulted = await emu.api('GET', '/v1/keys/me');
  const answered = (await ctl(emu, 'GET', `/requests/${faulted.headers.get('x-request-id')}`)).json;
  expect(answered).toMatchObject({ fault_id: rule.id, status: 502, code: 'launch_failed' });
  expect(answered.detail.error.error.code).toBe('launch_failed');
  expect(JSON.parse(answered.detail.response.body).error.code).toBe('launch_failed');
});

test('details are kept for the newest 100 calls, their secrets masked when read', async () => {
  const details = new JournalDetails(10_000);
  const envelope = { error: { code: 'not_resumable' } };
  const detail = (n: number) => ({
    requestHeaders: ['Authorization', 'Bearer svc_x', 'Cookie', 'a=b'],
    url: `/v1/x?n=${n}`,
    requestBody: '{"token":"t0k"}',
    error: envelope,
    response: new Response('{"secret":"whsec_x"}', {
      headers: { 'content-type': 'application/json' },
    }),
    nodeHeaders: ['x-request-id', `req_${n}`],
  });
  for (let n = 0; n < 130; n++) details.record(`req_${n}`, detail(n));
  expect(await details.view('req_29')).toBeUndefined();
  expect(await details.view('req_30')).toBeDefined();
  expect(await details.view('req_129')).toEqual({
    request: {
      query: 'n=129',
      headers: { authorization: 'Bearer [masked]', cookie: '[masked]' },
      body: '{"token":"[masked]"}',
    },
    response: {
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_129' },
      body: '{"secret":"[masked]"}',
    },
    error: envelope,
  });
  details.forget(['req_129']);
  expect(await details.view('req_129')).toBeUndefined();
  // A journal that keeps fewer entries keeps no more details.
  const small = new JournalDetails(2);
  for (let n = 0; n < 3; n++) small.record(`req_${n}`, detail(n));
  expect(await small.view('req_0')).toBeUndefined();
});

test('a reset of one account removes its entries, and with them their details', async () => {
  const emu = testEmulator();
  const id = (await emu.api('GET', '/v1/keys/me')).headers.get('x-request-id');
  await emu.control('POST', '/reset', { account: DEFAULT_ACCOUNT });
  expectError(await ctl(emu, 'GET', `/requests/${id}`), 404, 'resource_not_found', 'request_id');
  expect(await emu.emulator.deps.journal.details.view(id!)).toBeUndefined();
});
