/**
 * DELETE /v1/webhook_endpoints/{endpoint_id} (API document sections 2.6 and 4.7; DESIGN.md
 * section 3 "DELETE webhook endpoint": 200, and 404 for a deleted or unknown id).
 */
import { describe, expect, test } from 'vitest';
import { expectApiError, expectOk } from '../../../test/api/support.js';
import {
  DEFAULT_ACCOUNT,
  NO_TWINS_ACCOUNT,
  NO_TWINS_SECRET,
  testEmulator,
} from '../../../test/helpers.js';

type Emu = ReturnType<typeof testEmulator>;

async function seedEndpoint(emu: Emu, account = DEFAULT_ACCOUNT) {
  const endpoint = await emu.control('POST', `/accounts/${account}/webhook_endpoints`, {
    url: 'https://example.com/hooks/svc',
  });
  return endpoint.id as string;
}

describe('DELETE /v1/webhook_endpoints/{endpoint_id}', () => {
  test('answers 200 with the deletion object', async () => {
    const emu = testEmulator();
    const id = await seedEndpoint(emu);
    expect(id).toMatch(/^whe_[0-9A-HJKMNP-TV-Z]{26}$/);
    const res = await emu.api('DELETE', `/v1/webhook_endpoints/${id}`);
    expectOk(res, 200);
    expect(res.json).toEqual({ id, object: 'webhook_endpoint', deleted: true });
  });

  test('deleting the same endpoint again answers 404 resource_not_found', async () => {
    const emu = testEmulator();
    const id = await seedEndpoint(emu);
    expectOk(await emu.api('DELETE', `/v1/webhook_endpoints/${id}`), 200);
    const again = await emu.api('DELETE', `/v1/webhook_endpoints/${id}`);
    const error = expectApiError(again, 404, 'resource_not_found', 'endpoint_id');
    expect(error.message).toContain(id);
  });

  test('deleting one endpoint leaves the others', async () => {
    const emu = testEmulator();
    const first = await seedEndpoint(emu);
    const second = await seedEndpoint(emu);
    expectOk(await emu.api('DELETE', `/v1/webhook_endpoints/${first}`), 200);
    const res = await emu.api('DELETE', `/v1/webhook_endpoints/${second}`);
    expectOk(res, 200);
    expect(res.json).toEqual({ id: second, object: 'webhook_endpoint', deleted: true });
  });

  test('an unknown endpoint answers 404 resource_not_found naming endpoint_id', async () => {
    const { api } = testEmulator();
    const res = await api('DELETE', `/v1/webhook_endpoints/whe_${'0'.repeat(26)}`);
    expectApiError(res, 404, 'resource_not_found', 'endpoint_id');
  });

  test("another account's endpoint answers 404 and is not deleted", async () => {
    const emu = testEmulator();
    const id = await seedEndpoint(emu, NO_TWINS_ACCOUNT);
    const res = await emu.api('DELETE', `/v1/webhook_endpoints/${id}`);
    expectApiError(res, 404, 'resource_not_found', 'endpoint_id');
    const own = await emu.api('DELETE', `/v1/webhook_endpoints/${id}`, { secret: NO_TWINS_SECRET });
    expectOk(own, 200);
    expect(own.json).toEqual({ id, object: 'webhook_endpoint', deleted: true });
  });

  test.each([
    ['webhooks:read', ['webhooks:read']],
    ['no webhooks scope', ['evaluations:write', 'twins:write']],
  ])('a key with %s answers 403 missing_scope', async (_label, scopes) => {
    const emu = testEmulator();
    const id = await seedEndpoint(emu);
    const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
      name: 'limited',
      scopes,
    });
    const res = await emu.api('DELETE', `/v1/webhook_endpoints/${id}`, { secret: key.secret });
    const error = expectApiError(res, 403, 'missing_scope');
    expect(error.details).toEqual({ required_scope: 'webhooks:write' });
    // The refusal did not delete it.
    expectOk(await emu.api('DELETE', `/v1/webhook_endpoints/${id}`), 200);
  });

  test('a key with only webhooks:write deletes', async () => {
    const emu = testEmulator();
    const id = await seedEndpoint(emu);
    const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, {
      name: 'hooks',
      scopes: ['webhooks:write'],
    });
    const res = await emu.api('DELETE', `/v1/webhook_endpoints/${id}`, { secret: key.secret });
    expectOk(res, 200);
    expect(res.json).toEqual({ id, object: 'webhook_endpoint', deleted: true });
  });
});
