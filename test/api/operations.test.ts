/**
 * GET /v1/operations/{operation_id} (inferred; DESIGN.md section 7): any run by its id in one
 * compact shape, with its kind's read scope, derived like the kind's own resource.
 */
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_ACCOUNT,
  NO_TWINS_ACCOUNT,
  NO_TWINS_SECRET,
  servedDocument,
  testEmulator,
} from '../helpers.js';
import { BASE, expectApiError, expectOk, SPEC } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

async function seedEval(emu: Emu, body: Record<string, unknown> = {}, account = DEFAULT_ACCOUNT) {
  return emu.control('POST', `/accounts/${account}/evaluations`, { spec: SPEC, ...body });
}

async function keyWith(emu: Emu, scopes: string[]) {
  const key = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/keys`, { name: 'k', scopes });
  return key.secret as string;
}

describe('GET /v1/operations/{operation_id} for evaluations', () => {
  test('a legacy srun_ run answers like an eval_ one', async () => {
    const emu = testEmulator();
    const { id } = await seedEval(emu, { legacy: true, status: 'succeeded' });
    expect(id).toMatch(/^srun_/);
    const res = await emu.api('GET', `/v1/operations/${id}`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      id,
      object: 'operation',
      kind: 'evaluation',
      status: 'succeeded',
      progress: (await emu.api('GET', `/v1/evaluations/${id}`)).json.progress,
      links: { self: `${BASE}/v1/evaluations/${id}` },
    });
  });

  test("another account's run answers 404 like an unknown id", async () => {
    const emu = testEmulator();
    const { id } = await seedEval(emu, {}, NO_TWINS_ACCOUNT);
    expectOk(await emu.api('GET', `/v1/operations/${id}`, { secret: NO_TWINS_SECRET }), 200);
    const other = await emu.api('GET', `/v1/operations/${id}`);
    const unknown = await emu.api('GET', '/v1/operations/eval_00000000000000000000000099');
    const a = expectApiError(other, 404, 'resource_not_found', 'operation_id');
    const b = expectApiError(unknown, 404, 'resource_not_found', 'operation_id');
    expect(a.message.replace(id, 'ID')).toBe(
      b.message.replace('eval_00000000000000000000000099', 'ID'),
    );
  });

  test('an unknown prefix answers 404', async () => {
    const { api } = testEmulator();
    expectApiError(
      await api('GET', '/v1/operations/whk_123'),
      404,
      'resource_not_found',
      'operation_id',
    );
  });

  test('a key without evaluations:read answers 403 missing_scope naming it', async () => {
    const emu = testEmulator();
    const { id } = await seedEval(emu);
    const res = await emu.api('GET', `/v1/operations/${id}`, {
      secret: await keyWith(emu, ['usage:read']),
    });
    const error = expectApiError(res, 403, 'missing_scope');
    expect(error.details).toEqual({ required_scope: 'evaluations:read' });
  });

  test('without a key answers 401', async () => {
    const emu = testEmulator();
    const { id } = await seedEval(emu);
    expectApiError(
      await emu.api('GET', `/v1/operations/${id}`, { secret: null }),
      401,
      'unauthenticated',
    );
  });
});

describe('GET /v1/operations/{operation_id} for twins', () => {
  test('a twin: kind twin, its status, its progress, a link to the twin', async () => {
    const emu = testEmulator();
    const { id } = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {
      status: 'processing',
    });
    const res = await emu.api('GET', `/v1/operations/${id}`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      id,
      object: 'operation',
      kind: 'twin',
      status: 'processing',
      // A twin on the run engine shows its progress like every run (seeded: 0).
      progress: 0,
      links: { self: `${BASE}/v1/twins/${id}` },
    });
  });

  test('twins need twins:read, then the twins feature, like the twin routes', async () => {
    const emu = testEmulator();
    const { id } = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {});
    const scoped = await emu.api('GET', `/v1/operations/${id}`, {
      secret: await keyWith(emu, ['evaluations:read']),
    });
    expect(expectApiError(scoped, 403, 'missing_scope').details).toEqual({
      required_scope: 'twins:read',
    });
    const featureless = await emu.api('GET', `/v1/operations/${id}`, { secret: NO_TWINS_SECRET });
    expectApiError(featureless, 403, 'feature_not_enabled');
  });
});

describe('GET /v1/operations/{operation_id} and --strict', () => {
  test('served and flagged without --strict, with no route-level scope; absent under --strict', async () => {
    const doc = async (strict: boolean) =>
      servedDocument('/openapi.json', { strict }) as Promise<{
        paths: Record<string, { get: Record<string, unknown> }>;
      }>;
    const op = (await doc(false)).paths['/v1/operations/{operation_id}']?.get;
    expect(op?.['x-inferred']).toBe(true);
    expect(op?.tags).toEqual(['Operations']);
    expect(op?.['x-required-scope']).toBeUndefined();
    expect((await doc(true)).paths['/v1/operations/{operation_id}']).toBeUndefined();
    const { api } = testEmulator({ strict: true });
    expectApiError(await api('GET', '/v1/operations/eval_1'), 404, 'resource_not_found');
  });
});
