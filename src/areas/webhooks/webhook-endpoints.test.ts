/**
 * POST, GET and list of /v1/webhook_endpoints (inferred, DESIGN.md section 3 "Inferred
 * endpoints"): the endpoint object, its signing secret shown once, newest-first cursor paging,
 * and deleted endpoints gone, consistent with the documented DELETE (section 4.7).
 */
import { describe, expect, test } from 'vitest';
import { expectApiError, expectOk, T0 } from '../../../test/api/support.js';
import {
  DEFAULT_ACCOUNT,
  NO_TWINS_ACCOUNT,
  NO_TWINS_SECRET,
  testEmulator,
} from '../../../test/helpers.js';
import { makeWebhookSecret } from '../../core/ids.js';

type Emu = ReturnType<typeof testEmulator>;

const WHE = /^whe_[0-9A-HJKMNP-TV-Z]{26}$/;
const HOOK_URL = 'https://example.com/hooks/svc';

async function create(
  emu: Emu,
  body: Record<string, unknown> = { url: HOOK_URL },
  secret?: string,
) {
  const res = await emu.api('POST', '/v1/webhook_endpoints', { body, secret });
  expectOk(res, 201);
  return res.json;
}

/** The endpoint object as reads show it: the created one without its secret. */
function withoutSecret(created: Record<string, unknown>) {
  const { secret: _secret, ...endpoint } = created;
  return endpoint;
}

/** A control-seeded endpoint as the product API shows it: no account, chaos or secret. */
function productView(seeded: Record<string, unknown>) {
  const { account_id: _account, chaos: _chaos, ...endpoint } = withoutSecret(seeded);
  return endpoint;
}

async function keyWith(emu: Emu, scopes: string[]) {
  const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
    name: 'limited',
    scopes,
  });
  return key.secret as string;
}

describe('POST /v1/webhook_endpoints', () => {
  test('answers 201 with the endpoint and its signing secret, defaults filled in', async () => {
    const emu = testEmulator();
    const res = await emu.api('POST', '/v1/webhook_endpoints', { body: { url: HOOK_URL } });
    expectOk(res, 201);
    const id = res.json.id;
    expect(id).toMatch(WHE);
    expect(res.json).toEqual({
      id,
      object: 'webhook_endpoint',
      url: HOOK_URL,
      events: ['*'],
      description: null,
      metadata: {},
      status: 'enabled',
      disabled_at: null,
      created_at: T0,
      secret: makeWebhookSecret('0', id),
    });
    expect(res.json.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  });

  test('keeps every field given', async () => {
    const emu = testEmulator();
    const body = {
      url: 'http://localhost:9000/receive?x=1',
      events: ['evaluation.succeeded', 'evaluation.failed'],
      description: 'CI receiver',
      metadata: { team: 'sdk', nested: { n: 1 } },
    };
    const created = await create(emu, body);
    expect(created).toEqual({
      id: created.id,
      object: 'webhook_endpoint',
      ...body,
      status: 'enabled',
      disabled_at: null,
      created_at: T0,
      secret: makeWebhookSecret('0', created.id),
    });
  });

  test('the secret depends on the seed and the id only', async () => {
    const [a, b] = [testEmulator(), testEmulator()];
    const first = await create(a);
    const same = await create(b);
    expect(same.id).toBe(first.id);
    expect(same.secret).toBe(first.secret);
    const other = await create(testEmulator({ seed: '1' }));
    expect(other.secret).not.toBe(first.secret);
    const second = await create(a);
    expect(second.secret).not.toBe(first.secret);
  });

  test.each([
    ['a missing url', {}, 'url'],
    ['a url that is not a HOOK_URL', { url: 'example.com/hooks' }, 'url'],
    ['an ftp url', { url: 'ftp://example.com/hooks' }, 'url'],
    ['a url over 2048 characters', { url: `https://example.com/${'a'.repeat(2029)}` }, 'url'],
    ['a url that is not a string', { url: 42 }, 'url'],
    ['events that are not an array', { url: HOOK_URL, events: '*' }, 'events'],
    ['an empty events list', { url: HOOK_URL, events: [] }, 'events'],
    ['an empty event name', { url: HOOK_URL, events: ['*', ''] }, 'events.1'],
    [
      'a description over 500 characters',
      { url: HOOK_URL, description: 'd'.repeat(501) },
      'description',
    ],
    ['metadata that is not an object', { url: HOOK_URL, metadata: ['a'] }, 'metadata'],
    ['an unknown field', { url: HOOK_URL, secret: 'whsec_mine' }, 'secret'],
  ])('%s answers 400 parameter_invalid naming it', async (_label, body, param) => {
    const emu = testEmulator();
    const res = await emu.api('POST', '/v1/webhook_endpoints', { body });
    expectApiError(res, 400, 'parameter_invalid', param);
    expect((await emu.api('GET', '/v1/webhook_endpoints')).json.data).toEqual([]);
  });

  test('a url of exactly 2048 characters and a null description are accepted', async () => {
    const emu = testEmulator();
    const url = `https://example.com/${'a'.repeat(2028)}`;
    expect(url).toHaveLength(2048);
    const created = await create(emu, { url, description: null });
    expect(created).toMatchObject({ url, description: null });
  });

  test('a key with webhooks:read only answers 403 missing_scope and creates nothing', async () => {
    const emu = testEmulator();
    const secret = await keyWith(emu, ['webhooks:read']);
    const res = await emu.api('POST', '/v1/webhook_endpoints', { body: { url: HOOK_URL }, secret });
    const error = expectApiError(res, 403, 'missing_scope');
    expect(error.details).toEqual({ required_scope: 'webhooks:write' });
    expect((await emu.api('GET', '/v1/webhook_endpoints')).json.data).toEqual([]);
  });

  test('Idempotency-Key replays the first answer, secret included, and creates one endpoint', async () => {
    const emu = testEmulator();
    const headers = { 'idempotency-key': 'hook-1' };
    const first = await emu.api('POST', '/v1/webhook_endpoints', {
      body: { url: HOOK_URL },
      headers,
    });
    expectOk(first, 201);
    const again = await emu.api('POST', '/v1/webhook_endpoints', {
      body: { url: HOOK_URL },
      headers,
    });
    expectOk(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    const list = await emu.api('GET', '/v1/webhook_endpoints');
    expect(list.json.data).toEqual([withoutSecret(first.json)]);
    const other = await emu.api('POST', '/v1/webhook_endpoints', {
      body: { url: 'https://example.com/other' },
      headers,
    });
    expectApiError(other, 409, 'idempotency_key_reused', 'Idempotency-Key');
  });
});

describe('GET /v1/webhook_endpoints/{endpoint_id}', () => {
  test('answers the endpoint without its secret', async () => {
    const emu = testEmulator();
    const created = await create(emu, { url: HOOK_URL, description: 'd', metadata: { a: 1 } });
    const res = await emu.api('GET', `/v1/webhook_endpoints/${created.id}`);
    expectOk(res, 200);
    expect(res.json).toEqual(withoutSecret(created));
  });

  test('a key with webhooks:write reads (write implies read); one without answers 403', async () => {
    const emu = testEmulator();
    const created = await create(emu);
    const writer = await keyWith(emu, ['webhooks:write']);
    expectOk(await emu.api('GET', `/v1/webhook_endpoints/${created.id}`, { secret: writer }), 200);
    const other = await keyWith(emu, ['evaluations:write', 'twins:read']);
    const res = await emu.api('GET', `/v1/webhook_endpoints/${created.id}`, { secret: other });
    const error = expectApiError(res, 403, 'missing_scope');
    expect(error.details).toEqual({ required_scope: 'webhooks:read' });
  });

  test('a deleted endpoint answers 404 resource_not_found', async () => {
    const emu = testEmulator();
    const created = await create(emu);
    expectOk(await emu.api('DELETE', `/v1/webhook_endpoints/${created.id}`), 200);
    const res = await emu.api('GET', `/v1/webhook_endpoints/${created.id}`);
    const error = expectApiError(res, 404, 'resource_not_found', 'endpoint_id');
    expect(error.message).toContain(created.id);
  });

  test("an unknown id and another account's id answer 404 alike", async () => {
    const emu = testEmulator();
    const theirs = await emu.control('POST', `/accounts/${NO_TWINS_ACCOUNT}/webhook_endpoints`, {
      url: HOOK_URL,
    });
    for (const id of [theirs.id, `whe_${'0'.repeat(26)}`, 'nope']) {
      const res = await emu.api('GET', `/v1/webhook_endpoints/${id}`);
      expectApiError(res, 404, 'resource_not_found', 'endpoint_id');
    }
    const own = await emu.api('GET', `/v1/webhook_endpoints/${theirs.id}`, {
      secret: NO_TWINS_SECRET,
    });
    expectOk(own, 200);
    expect(own.json).toEqual(productView(theirs));
  });
});

describe('GET /v1/webhook_endpoints', () => {
  test("lists the account's endpoints newest first, without secrets or deleted ones", async () => {
    const emu = testEmulator();
    const a = await create(emu, { url: 'https://example.com/a' });
    const b = await create(emu, { url: 'https://example.com/b' });
    const c = await create(emu, { url: 'https://example.com/c' });
    await emu.control('POST', `/accounts/${NO_TWINS_ACCOUNT}/webhook_endpoints`, { url: HOOK_URL });
    expectOk(await emu.api('DELETE', `/v1/webhook_endpoints/${b.id}`), 200);
    const res = await emu.api('GET', '/v1/webhook_endpoints');
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: [withoutSecret(c), withoutSecret(a)],
      has_more: false,
      next_cursor: null,
    });
  });

  test('pages with limit and after; next_cursor is the last id of the page', async () => {
    const emu = testEmulator();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(withoutSecret(await create(emu)));
    const newest = made.reverse();
    const first = await emu.api('GET', '/v1/webhook_endpoints?limit=2');
    expectOk(first, 200);
    expect(first.json).toEqual({
      object: 'list',
      data: newest.slice(0, 2),
      has_more: true,
      next_cursor: newest[1]!.id,
    });
    const second = await emu.api('GET', `/v1/webhook_endpoints?limit=2&after=${newest[1]!.id}`);
    expect(second.json).toEqual({
      object: 'list',
      data: newest.slice(2, 4),
      has_more: true,
      next_cursor: newest[3]!.id,
    });
    const last = await emu.api('GET', `/v1/webhook_endpoints?limit=2&after=${newest[3]!.id}`);
    expect(last.json).toEqual({
      object: 'list',
      data: newest.slice(4),
      has_more: false,
      next_cursor: null,
    });
  });

  test('pages of 20 by default', async () => {
    const emu = testEmulator();
    for (let i = 0; i < 21; i++) await create(emu);
    const res = await emu.api('GET', '/v1/webhook_endpoints');
    expect(res.json.data).toHaveLength(20);
    expect(res.json.has_more).toBe(true);
  });

  test("an unknown, deleted or another account's cursor answers 400 naming after", async () => {
    const emu = testEmulator();
    const gone = await create(emu);
    await create(emu);
    expectOk(await emu.api('DELETE', `/v1/webhook_endpoints/${gone.id}`), 200);
    const theirs = await emu.control('POST', `/accounts/${NO_TWINS_ACCOUNT}/webhook_endpoints`, {
      url: HOOK_URL,
    });
    for (const after of [gone.id, theirs.id, `whe_${'0'.repeat(26)}`, '']) {
      const res = await emu.api('GET', `/v1/webhook_endpoints?after=${after}`);
      expectApiError(res, 400, 'parameter_invalid', 'after');
    }
  });

  test.each(['0', '101', 'ten', '1.5'])('limit=%s answers 400 naming limit', async (limit) => {
    const { api } = testEmulator();
    const res = await api('GET', `/v1/webhook_endpoints?limit=${limit}`);
    expectApiError(res, 400, 'parameter_invalid', 'limit');
  });

  test('a key without a webhooks scope answers 403 missing_scope', async () => {
    const emu = testEmulator();
    const secret = await keyWith(emu, ['usage:read']);
    const res = await emu.api('GET', '/v1/webhook_endpoints', { secret });
    expectApiError(res, 403, 'missing_scope');
  });
});

test('control seeding answers the same endpoint object, with description, metadata and secret', async () => {
  const emu = testEmulator();
  const seeded = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: HOOK_URL,
    events: ['evaluation.succeeded'],
    description: 'seeded',
    metadata: { k: 'v' },
  });
  expect(seeded).toEqual({
    id: seeded.id,
    object: 'webhook_endpoint',
    url: HOOK_URL,
    events: ['evaluation.succeeded'],
    description: 'seeded',
    metadata: { k: 'v' },
    status: 'enabled',
    disabled_at: null,
    created_at: T0,
    account_id: DEFAULT_ACCOUNT,
    chaos: null,
    secret: makeWebhookSecret('0', seeded.id),
  });
  const read = await emu.api('GET', `/v1/webhook_endpoints/${seeded.id}`);
  expect(read.json).toEqual(productView(seeded));
});
