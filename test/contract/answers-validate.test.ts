/**
 * The served `/openapi.json` tells the truth about the emulator's answers (issue 28 item 5): every
 * kind's run, queued, succeeded with its typed `result`, failed with each of its codes, listed, in
 * an event, with a signed download, and seeded through the control API with parts left out,
 * validates against the schema its operation declares; and no kind's `result` is free-form.
 */
import { describe, expect, test } from 'vitest';
import { expectApiError, expectOk } from '../api/support.js';
import { END, KINDS, kindWorld, pathOf, withOutcomes } from '../engine/support.js';
import { DEFAULT_ACCOUNT, servedDocument, testEmulator } from '../helpers.js';
import { type OpenApiDocument, responseSchema, schemaErrors } from './schema-check.js';

const DOC = (await servedDocument()) as OpenApiDocument;

/** Asserts `body` is what `method template` declares for `status`. */
function expectValid(template: string | undefined, method: string, status: number, body: unknown) {
  if (!template) throw new Error('no route');
  expect(schemaErrors(DOC, responseSchema(DOC, template, method, status), body)).toEqual([]);
}

describe.each(KINDS)('%s', (_name, registered) => {
  const { routes, kind } = registered;
  const get = routes.get?.path;

  test('its result has a schema of its own: named, typed fields, all required', () => {
    const schema = responseSchema(DOC, get!, 'get', 200);
    const resource = DOC.components.schemas[String(schema.$ref).split('/').at(-1)!]!;
    const result = (resource.properties as Record<string, { $ref?: string }>).result!;
    const named = DOC.components.schemas[String(result.$ref).split('/').at(-1)!]!;
    const props = Object.keys(named.properties as object);
    expect(props.length).toBeGreaterThan(2);
    expect(named.required).toEqual(props);
    expect(named.additionalProperties).toBeUndefined();
  });

  test('created, succeeded, listed and in its events, each answer matches its schema', async () => {
    const w = kindWorld(registered);
    const created = await w.create();
    expectValid(routes.create?.path, 'post', 201, created);
    await w.advance(END);
    const run = await w.get(created.id);
    expect(run.status).toBe('succeeded');
    expect(run.result).not.toBeNull();
    expectValid(get, 'get', 200, run);
    const list = await w.emu.api('GET', pathOf(registered, 'list'));
    expectOk(list, 200);
    expectValid(routes.list?.path, 'get', 200, list.json);
    const events = await w.emu.api('GET', `/v1/events?resource=${created.id}`);
    expectOk(events, 200);
    expectValid('/v1/events', 'get', 200, events.json);
  });

  test.each(kind.failureCodes)('failed with %s, it matches its schema', async (code) => {
    const w = kindWorld(registered);
    const { id } = await w.create(withOutcomes(w.body, [{ fail: code }]));
    await w.advance(END);
    const run = await w.get(id);
    expect(run.error.code).toBe(code);
    expectValid(get, 'get', 200, run);
  });

  test('with a signed download (its expires_at set), it matches its schema', async () => {
    const w = kindWorld(registered);
    const { account, key } = await w.emu.control('POST', '/accounts', {
      download_mode: 'signed',
      features: ['twins'],
    });
    const created = await w.emu.api('POST', w.path('create'), { body: w.body, secret: key.secret });
    expectOk(created, 201);
    await w.emu.control('POST', `/accounts/${account.id}/clock/advance`, { seconds: END });
    const run = await w.emu.api('GET', w.path('get', created.json.id), { secret: key.secret });
    expect(run.json.download.expires_at).toEqual(expect.any(String));
    expectValid(get, 'get', 200, run.json);
  });

  test('seeded through /runs succeeded and failed with an error but its code, it matches', async () => {
    const w = kindWorld(registered);
    const runs = `/accounts/${DEFAULT_ACCOUNT}/runs`;
    const ok = await w.emu.control('POST', runs, {
      kind: kind.name,
      ...w.body,
      status: 'succeeded',
    });
    expectValid(get, 'get', 200, await w.get(ok.id));
    const failed = await w.emu.control('POST', runs, {
      kind: kind.name,
      ...w.body,
      status: 'failed',
      error: { code: 'interrupted', message: 'Lost the worker.', resumable: true },
    });
    const run = await w.get(failed.id);
    expect(run.error).toEqual({
      code: 'interrupted',
      message: 'Lost the worker.',
      resumable: true,
      param: null,
      details: null,
    });
    expectValid(get, 'get', 200, run);
  });
});

test("a seeded result is checked against its kind's result schema: 400 naming the field", async () => {
  const { api } = testEmulator();
  const res = await api('POST', `/_control/accounts/${DEFAULT_ACCOUNT}/runs`, {
    body: {
      kind: 'augmentation',
      dataset: 'ds_01KA0000000000000000PANDA1',
      config: { episode_count: 1 },
      status: 'succeeded',
      result: { total_frames: 'many' },
    },
  });
  expectApiError(res, 400, 'parameter_invalid', 'result.dataset');
  // Nothing of it was stored.
  expect((await api('GET', '/v1/augmentations')).json.data).toEqual([]);
});

test('an evaluation seeded with parts of its result, error and download answers them whole', async () => {
  const { api, control } = testEmulator();
  const seeded = await control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, {
    spec: { path: 'specs/pick.yaml', name: 'pick' },
    status: 'failed',
    error: { code: 'verification_failed', message: 'Mismatch.', resumable: true },
    result: { verified: false, metrics: [{ id: 'success_rate', value: 0.5 }] },
    download: {
      url: 'https://example.com/a.tar.gz',
      requires_auth: false,
      filename: 'a.tar.gz',
      bytes: 10,
      sha256: '0'.repeat(64),
    },
  });
  const run = (await api('GET', `/v1/evaluations/${seeded.id}`)).json;
  expect(run.result).toEqual({
    verified: false,
    run_id: null,
    manifest_hash: null,
    run_hash: null,
    determinism_verified: null,
    metrics: [{ id: 'success_rate', version: null, value: 0.5, interval: null, n: null }],
  });
  expect(run.error).toMatchObject({ param: null, details: null });
  expect(run.download.expires_at).toBeNull();
  expectValid('/v1/evaluations/{run_id}', 'get', 200, run);
});

test('the check is not vacuous: a result missing a field or null where none is allowed fails', async () => {
  // The first kind is augmentations (src/kinds/index.ts), whose result has `total_frames`.
  const w = kindWorld(KINDS[0]![1]);
  const { id } = await w.create();
  await w.advance(END);
  const run = await w.get(id);
  const schema = responseSchema(DOC, w.routes.get!.path, 'get', 200);
  const { total_frames: _gone, ...partial } = run.result;
  expect(schemaErrors(DOC, schema, { ...run, result: partial })).toEqual([
    "$.result: must have required property 'total_frames'",
  ]);
  expect(schemaErrors(DOC, schema, { ...run, tokens: null })).toEqual(['$.tokens: must be object']);
});
