/**
 * `--strict` (DESIGN.md section 3 "Inferred endpoints") serves only the documented operations:
 * the inferred twin, webhook endpoint, usage and status operations are neither served nor in
 * the document, while the documented twin files and DELETE webhook endpoint stay.
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, servedDocument, testEmulator } from '../helpers.js';
import { expectApiError, expectOk } from './support.js';

const INFERRED: [string, string, unknown?][] = [
  ['GET', '/v1/twins'],
  ['GET', '/v1/twins/TWIN'],
  ['GET', '/v1/webhook_endpoints'],
  ['POST', '/v1/webhook_endpoints', { url: 'https://example.com/h' }],
  ['GET', '/v1/webhook_endpoints/WHE'],
  ['GET', '/v1/usage'],
  ['GET', '/v1/status'],
];

async function seeded(strict: boolean) {
  const emu = testEmulator({ strict });
  const twin = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, {
    status: 'succeeded',
  });
  const whe = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: 'https://example.com/h',
  });
  const path = (p: string) => p.replace('TWIN', twin.id).replace('WHE', whe.id);
  return { emu, twin, whe, path };
}

test.each(INFERRED)('under --strict, %s %s answers 404 with a key', async (method, p, body) => {
  const { emu, path } = await seeded(true);
  const res = await emu.api(method, path(p), { body });
  const error = expectApiError(res, 404, 'resource_not_found');
  expect(error.message).toBe(`Unrecognized request: ${method} ${path(p)}.`);
});

test.each(INFERRED)('without --strict, %s %s is served', async (method, p, body) => {
  const { emu, path } = await seeded(false);
  const res = await emu.api(method, path(p), { body });
  expectOk(res, method === 'POST' ? 201 : 200);
});

test('under --strict, GET /v1/status needs a key like any unknown /v1 path', async () => {
  const { api } = testEmulator({ strict: true });
  expectApiError(await api('GET', '/v1/status', { secret: null }), 401, 'unauthenticated');
});

test('under --strict, the documented twin files and webhook endpoint DELETE are served', async () => {
  const { emu, twin, whe } = await seeded(true);
  expectOk(await emu.api('GET', `/v1/twins/${twin.id}/files`), 200);
  const res = await emu.api('DELETE', `/v1/webhook_endpoints/${whe.id}`);
  expectOk(res, 200);
  expect(res.json).toEqual({ id: whe.id, object: 'webhook_endpoint', deleted: true });
});

interface Operation {
  operationId: string;
  security?: unknown[];
  'x-inferred'?: boolean;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { 'x-inferred'?: boolean }> };
}

test('the inferred operations are in /openapi.json, flagged, and absent under --strict', async () => {
  const operations = async (strict: boolean) => {
    const doc = (await servedDocument('/openapi.json', { strict })) as Doc;
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    return { doc, ops, ids: ops.map((op) => op.operationId) };
  };
  const added = [
    'listTwins',
    'getTwin',
    'createWebhookEndpoint',
    'listWebhookEndpoints',
    'getWebhookEndpoint',
    'getUsage',
    'getStatus',
  ];
  const full = await operations(false);
  expect(full.ids).toEqual(expect.arrayContaining(added));
  for (const op of full.ops) {
    if (added.includes(op.operationId)) expect(op['x-inferred'], op.operationId).toBe(true);
  }
  expect(full.doc.paths['/v1/status']?.get?.security).toEqual([]);
  for (const name of [
    'Twin',
    'WebhookEndpoint',
    'CreatedWebhookEndpoint',
    'Usage',
    'ServiceStatus',
  ]) {
    expect(full.doc.components.schemas[name]?.['x-inferred'], name).toBe(true);
  }
  const strict = await operations(true);
  for (const id of added) expect(strict.ids).not.toContain(id);
  expect(strict.ids).toEqual(expect.arrayContaining(['listTwinFiles', 'deleteWebhookEndpoint']));
});

/** The seven operations of the API document (section 4). */
const DOCUMENTED = [
  'resumeEvaluation',
  'getCurrentKey',
  'createScenario',
  'getSimRunLogs',
  'listSimRunFiles',
  'listTwinFiles',
  'deleteWebhookEndpoint',
];

test('under --strict /openapi.json holds exactly the seven documented operations; every other one is flagged x-inferred', async () => {
  const ids = async (strict: boolean) => {
    const doc = (await servedDocument('/openapi.json', { strict })) as Doc;
    return Object.values(doc.paths).flatMap((item) => Object.values(item));
  };
  const strict = await ids(true);
  expect(strict.map((op) => op.operationId).sort()).toEqual([...DOCUMENTED].sort());
  const full = await ids(false);
  const inferred = full.filter((op) => !DOCUMENTED.includes(op.operationId));
  // Every run kind's eight operations, at least, beside the earlier inferred ones.
  for (const kind of ['Augmentation', 'TrainingRun', 'RlRun', 'ScenarioRun'])
    for (const prefix of ['create', 'get', 'cancel', 'resume'])
      expect(inferred.map((op) => op.operationId)).toContain(`${prefix}${kind}`);
  for (const op of inferred) expect(op['x-inferred'], op.operationId).toBe(true);
});
