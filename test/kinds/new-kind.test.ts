/**
 * Adding a kind is one folder and one registration line (docs/development.md, "Adding a kind";
 * DESIGN.md section 7). `test/kinds/widgets/` is a throwaway kind written as a folder of
 * `src/kinds/` would be; registering it (the `kinds` option here, the line in
 * `src/kinds/index.ts` for a real one) is all it takes for the engine to serve it everywhere a
 * kind shows: its routes, scopes, events, usage, operations, status, documents and seeding.
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { REGISTERED_KINDS } from '../../src/kinds/index.js';
import { expectError, testEmulator } from '../helpers.js';
import { widgets } from './widgets/index.js';

const withWidgets = () => testEmulator({ kinds: [...REGISTERED_KINDS, widgets] });

/** A new account whose full-scope key is `secret`. */
async function account(emu: ReturnType<typeof withWidgets>) {
  const { account, key } = await emu.control('POST', '/accounts', { clock: { mode: 'manual' } });
  return { id: account.id as string, secret: key.secret as string, scopes: key.scopes as string[] };
}

test('a registered kind is served on the engine: create, clock, get, list, files, logs, archive', async () => {
  const emu = withWidgets();
  const { id: acct, secret } = await account(emu);
  const created = await emu.api('POST', '/v1/widgets', { secret, body: { coats: 3 } });
  expect(created.status).toBe(201);
  expect(created.json).toMatchObject({
    object: 'widget',
    status: 'queued',
    coats: { done: 0, total: 3 },
    tokens: { charged: 9, refunded: 0 },
  });
  expect(created.json.id).toMatch(/^wid_[0-9A-Z]{26}$/);
  const id = created.json.id as string;

  await emu.control('POST', `/accounts/${acct}/clock/advance`, { seconds: 60 });
  const run = await emu.api('GET', `/v1/widgets/${id}`, { secret });
  expect(run.json).toMatchObject({ status: 'succeeded', result: { shine: 1, coats: 3 } });
  const listed = await emu.api('GET', '/v1/widgets', { secret });
  expect(listed.json.data.map((w: { id: string }) => w.id)).toEqual([id]);

  const logs = await emu.api('GET', `/v1/widgets/${id}/logs`, { secret });
  expect(logs.json.lines.at(-1)).toMatch(/widget polished: 3 coats$/);
  const files = await emu.api('GET', `/v1/widgets/${id}/files`, { secret });
  expect(files.json.data.map((f: { path: string }) => f.path)).toEqual([
    'logs/widget.log',
    'widget.json',
  ]);
  const archive = await emu.app.request(`/v1/widgets/${id}/archive`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  const bytes = Buffer.from(await archive.arrayBuffer());
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(run.json.download.sha256);
});

test("a registered kind's scope, events, usage, operation and status come from its registration", async () => {
  const emu = withWidgets();
  const { id: acct, secret, scopes } = await account(emu);
  expect(scopes).toContain('widgets:write');
  const { id } = (await emu.api('POST', '/v1/widgets', { secret, body: { coats: 1 } })).json;
  await emu.control('POST', `/accounts/${acct}/clock/advance`, { seconds: 60 });

  const events = await emu.api('GET', `/v1/events?type=widget.*`, { secret });
  expect(events.json.data.map((e: { type: string }) => e.type).reverse()).toEqual([
    'widget.queued',
    'widget.processing',
    'widget.succeeded',
  ]);
  const usage = await emu.api('GET', '/v1/usage', { secret });
  expect(usage.json.widgets).toMatchObject({ total: 1, by_status: { succeeded: 1 } });
  const op = await emu.api('GET', `/v1/operations/${id}`, { secret });
  expect(op.json).toMatchObject({ object: 'operation', kind: 'widget', status: 'succeeded' });
  const status = await emu.api('GET', '/v1/status', { secret: null });
  expect(status.json.components.map((c: { name: string }) => c.name)).toContain('Widgets');

  const key = await emu.control('POST', `/accounts/${acct}/keys`, {
    name: 'reader',
    scopes: ['widgets:read'],
  });
  const write = await emu.api('POST', '/v1/widgets', { secret: key.secret, body: { coats: 1 } });
  expectError(write, 403, 'missing_scope');
  expect((await emu.api('GET', `/v1/widgets/${id}`, { secret: key.secret })).status).toBe(200);
});

test('a registered kind shows in the served document and can be seeded through /_control', async () => {
  const emu = withWidgets();
  const doc = (await emu.api('GET', '/openapi.json', { secret: null })).json;
  expect(doc.paths['/v1/widgets'].post.operationId).toBe('createWidget');
  expect(doc.tags.map((t: { name: string }) => t.name)).toContain('Widgets');
  expect(doc.components.schemas.Widget).toBeDefined();

  const { id: acct, secret } = await account(emu);
  const seeded = await emu.control('POST', `/accounts/${acct}/runs`, {
    kind: 'widget',
    coats: 2,
    status: 'failed',
  });
  expect(seeded).toMatchObject({ object: 'widget', status: 'failed' });
  const resumed = await emu.api('POST', `/v1/widgets/${seeded.id}/resume`, { secret });
  expect(resumed.json).toMatchObject({ status: 'queued' });
});

test('without the registration the kind is not served', async () => {
  const emu = testEmulator();
  const res = await emu.api('POST', '/v1/widgets', { body: { coats: 1 } });
  expectError(res, 404, 'resource_not_found');
});
