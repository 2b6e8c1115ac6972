import { describe, expect, test } from 'vitest';
import { expectError, servedDocument, testEmulator } from '../helpers.js';
import { SPEC, withAccount } from '../with-account.js';

const key = (k: string) => ({ 'idempotency-key': k });

describe('Idempotency-Key', () => {
  test('same key, same body: the first response byte for byte, replayed, no second effect', async () => {
    const { api, control } = testEmulator();
    const first = await api('POST', '/v1/evaluations', { body: SPEC, headers: key('k-1') });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await api('POST', '/v1/evaluations', { body: SPEC, headers: key('k-1') });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('service-version')).toBe('2026-09-27');
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect((await api('GET', '/v1/evaluations')).json.data).toHaveLength(1);
    const journal = (await control('GET', '/requests?method=POST')).data;
    expect(journal.map((e: { idempotent_replayed: boolean }) => e.idempotent_replayed)).toEqual([
      false,
      true,
    ]);
  });

  test('the replay keeps the version the first call was served at', async () => {
    const { api } = testEmulator();
    const headers = { ...key('v'), 'service-version': '2026-10-12' };
    const first = await api('POST', '/v1/evaluations', { body: SPEC, headers });
    const again = await api('POST', '/v1/evaluations', { body: SPEC, headers: key('v') });
    expect(again.text).toBe(first.text);
    expect(again.headers.get('service-version')).toBe('2026-10-12');
  });

  test('same key, different body or path: 409 idempotency_key_reused', async () => {
    const { api } = testEmulator();
    const created = await api('POST', '/v1/evaluations', { body: SPEC, headers: key('k') });
    const other = { spec: { path: 'sdk/spec.yaml', name: 'other' } };
    expectError(
      await api('POST', '/v1/evaluations', { body: other, headers: key('k') }),
      409,
      'idempotency_key_reused',
      'Idempotency-Key',
    );
    expectError(
      await api('POST', `/v1/evaluations/${created.json.id}/cancel`, { headers: key('k') }),
      409,
      'idempotency_key_reused',
      'Idempotency-Key',
    );
    expect((await api('GET', '/v1/evaluations')).json.data).toHaveLength(1);
  });

  test('validation comes first: a reused key with an invalid body is 400', async () => {
    const { api } = testEmulator();
    await api('POST', '/v1/evaluations', { body: SPEC, headers: key('k') });
    expectError(
      await api('POST', '/v1/evaluations', { body: { spec: {} }, headers: key('k') }),
      400,
      'parameter_invalid',
      'spec.path',
    );
  });

  test('keys expire after 24 virtual hours', async () => {
    const a = await withAccount();
    const first = await a.call('POST', '/v1/evaluations', { body: SPEC, headers: key('day') });
    await a.advance(24 * 3600 - 1);
    const replay = await a.call('POST', '/v1/evaluations', { body: SPEC, headers: key('day') });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await a.advance(1);
    const fresh = await a.call('POST', '/v1/evaluations', { body: SPEC, headers: key('day') });
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.json.id).not.toBe(first.json.id);
  });

  test('keys are per account', async () => {
    const a = await withAccount();
    const mine = await a.call('POST', '/v1/evaluations', { body: SPEC, headers: key('shared') });
    const theirs = await a.api('POST', '/v1/evaluations', { body: SPEC, headers: key('shared') });
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.id).not.toBe(mine.json.id);
  });

  test('an error is not kept: the same key can retry once the state allows', async () => {
    const { api, control } = testEmulator();
    const run = await api('POST', '/v1/evaluations', {
      body: { ...SPEC, options: { emulator: { outcomes: [{ fail: 'interrupted' }] } } },
    });
    const resume = `/v1/evaluations/${run.json.id}/resume`;
    expectError(await api('POST', resume, { headers: key('r') }), 409, 'not_resumable');
    await control('POST', '/accounts/acct_00000000000000000000000001/clock/advance', {
      seconds: 60,
    });
    const ok = await api('POST', resume, { headers: key('r') });
    expect(ok.status).toBe(202);
    const replay = await api('POST', resume, { headers: key('r') });
    expect(replay.text).toBe(ok.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  test('resume takes no body, so the same key replays whatever body comes with it', async () => {
    const { api, control } = testEmulator();
    const run = await control('POST', '/accounts/acct_00000000000000000000000001/evaluations', {
      spec: SPEC.spec,
      status: 'failed',
    });
    const resume = `/v1/evaluations/${run.id}/resume`;
    const ok = await api('POST', resume, { body: {}, headers: key('sdk') });
    expect(ok.status).toBe(202);
    for (const body of [undefined, { anything: true }]) {
      const replay = await api('POST', resume, { body, headers: key('sdk') });
      expect(replay.text).toBe(ok.text);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
  });

  test('a faulted call keeps nothing: the retry under the same key runs', async () => {
    const { api } = testEmulator();
    const faulted = await api('POST', '/v1/evaluations', {
      body: SPEC,
      headers: { ...key('f'), 'x-emulator-fault': '502' },
    });
    expect(faulted.status).toBe(502);
    const ok = await api('POST', '/v1/evaluations', { body: SPEC, headers: key('f') });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
  });

  test.each(['', 'a'.repeat(256), 'has space'])('a malformed key %j is 400', async (k) => {
    const { api } = testEmulator();
    expectError(
      await api('POST', '/v1/evaluations', { body: SPEC, headers: key(k) }),
      400,
      'parameter_invalid',
      'Idempotency-Key',
    );
  });

  test('GET ignores the header', async () => {
    const { api } = testEmulator();
    expect((await api('GET', '/v1/keys/me', { headers: key('x') })).status).toBe(200);
  });
});

test('/openapi.json documents Idempotency-Key on every POST, and GET /v1/requests', async () => {
  const doc = (await servedDocument()) as {
    paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
  };
  const posts = Object.entries(doc.paths).filter(([, item]) => item.post);
  expect(posts.length).toBeGreaterThanOrEqual(4);
  for (const [path, item] of posts) {
    expect(
      item.post?.parameters?.map((p) => p.name),
      path,
    ).toContain('Idempotency-Key');
  }
  expect(doc.paths['/v1/requests']?.get).toMatchObject({
    operationId: 'listRequests',
    'x-inferred': true,
    'x-required-scope': 'requests:read',
  });
});
