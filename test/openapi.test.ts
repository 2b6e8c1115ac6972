import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, test } from 'vitest';
import { servedDocument } from './helpers.js';

/**
 * The seven operations of the API document (section 4) with the responses it documents for each.
 * Where the document says a status is "not shown", the emulator's inferred status is listed and
 * must be flagged `x-inferred` (DESIGN.md section 3).
 */
const DOCUMENTED = [
  {
    path: '/v1/evaluations/{run_id}/resume',
    method: 'post',
    statuses: ['202', '400', '401', '403', '404', '409', '429', '502'],
  },
  { path: '/v1/keys/me', method: 'get', statuses: ['200', '401'] },
  { path: '/v1/scenarios', method: 'post', statuses: ['201', '400'], inferred: ['201'] },
  { path: '/v1/sim_runs/{run_id}/logs', method: 'get', statuses: ['200', '400', '404'] },
  { path: '/v1/sim_runs/{run_id}/files', method: 'get', statuses: ['200', '409'] },
  { path: '/v1/twins/{twin_id}/files', method: 'get', statuses: ['200', '409'] },
  {
    path: '/v1/webhook_endpoints/{endpoint_id}',
    method: 'delete',
    statuses: ['200', '404'],
    inferred: ['200'],
  },
] as const;

/** A served document, shared with the worker's other files (test/helpers.ts), read loosely. */
const document = (...args: Parameters<typeof servedDocument>) =>
  servedDocument(...args) as Promise<any>;

/** One validator for both documents: each new one compiles the OpenAPI 3.1 schema again (0.4 s). */
const validator = new Validator();

test('GET /openapi.json is a valid OpenAPI 3.1 document', async () => {
  const doc = await document();
  expect(doc.openapi).toBe('3.1.0');
  const result = await validator.validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test('GET /_control/openapi.json is a valid OpenAPI 3.1 document of the control API only', async () => {
  const doc = await document('/_control/openapi.json');
  const result = await validator.validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(Object.keys(doc.paths)).toContain('/health');
  expect(Object.keys(doc.paths).some((p) => p.startsWith('/v1'))).toBe(false);
});

test('the product document holds every documented operation with its documented responses', async () => {
  const doc = await document();
  for (const op of DOCUMENTED) {
    const operation = doc.paths[op.path]?.[op.method];
    expect(operation, `${op.method} ${op.path}`).toBeDefined();
    for (const status of op.statuses) {
      const response = operation.responses[status];
      expect(response, `${op.method} ${op.path} ${status}`).toBeDefined();
      expect(response.headers['Service-Version']).toBeDefined();
      expect(response.headers['X-Request-Id']).toBeDefined();
      const schema = response.content['application/json'].schema.$ref;
      if (status.startsWith('4') || status.startsWith('5')) {
        expect(schema).toBe('#/components/schemas/ErrorResponse');
      }
    }
    for (const status of 'inferred' in op ? op.inferred : []) {
      expect(operation.responses[status]['x-inferred'], `${op.path} ${status}`).toBe(true);
    }
  }
});

test('the product document has no control routes and flags inferred parts', async () => {
  const doc = await document();
  expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/v1'))).toEqual([]);
  expect(doc.components.schemas.Scenario['x-inferred']).toBe(true);
  const logs = doc.paths['/v1/sim_runs/{run_id}/logs'].get;
  const limit = logs.parameters.find((p: any) => p.name === 'limit');
  expect(limit.schema).toMatchObject({
    minimum: 1,
    maximum: 5000,
    default: 100,
    'x-inferred': true,
  });
});

test('Service-Version enums say what the server accepts; x-service-versions the documented list', async () => {
  type Doc = Awaited<ReturnType<typeof document>>;
  type Param = { name: string; schema: { enum: string[] } };
  const versions = (doc: Doc, path: string, method: string) =>
    (doc.paths[path][method].parameters as Param[]).find((p) => p.name === 'Service-Version')
      ?.schema.enum;
  const doc = await document();
  expect(versions(doc, '/v1/evaluations/{run_id}/resume', 'post')).toEqual([
    '2026-09-27',
    '2026-10-12',
  ]);
  expect(versions(doc, '/v1/keys/me', 'get')).toEqual(['2026-09-27', '2026-10-12']);
  expect(doc.paths['/v1/keys/me'].get['x-service-versions']).toEqual(['2026-09-27']);
  const strict = (await document('/openapi.json', { strictVersions: true })) as Doc;
  expect(versions(strict, '/v1/evaluations/{run_id}/resume', 'post')).toEqual([
    '2026-09-27',
    '2026-10-12',
  ]);
  expect(versions(strict, '/v1/keys/me', 'get')).toEqual(['2026-09-27']);
});

test('every inferred operation says so in the first line of its description', async () => {
  const doc = await document();
  let inferred = 0;
  type Op = { operationId: string; description: string; 'x-inferred'?: boolean };
  for (const item of Object.values(doc.paths as Record<string, Record<string, Op>>)) {
    for (const op of Object.values(item)) {
      expect(op.description, op.operationId).toBeTruthy();
      const first = op.description.split('\n')[0] ?? '';
      expect(first.startsWith('Inferred:'), op.operationId).toBe(op['x-inferred'] === true);
      if (op['x-inferred']) inferred++;
    }
  }
  expect(inferred).toBeGreaterThan(50);
});

test('the Evaluation schema and its parts require every field, as every body has them all', async () => {
  const doc = await document();
  const evaluation = doc.components.schemas.Evaluation;
  // API document section 2.2 requires id, progress, status, tokens; the emulator sends all 20.
  expect([...evaluation.required].sort()).toEqual(Object.keys(evaluation.properties).sort());
  expect(evaluation.required).toHaveLength(20);
  expect(evaluation.properties.status.enum).toEqual([
    'queued',
    'processing',
    'canceling',
    'succeeded',
    'failed',
    'canceled',
  ]);
  // Always sent, so required too: where section 2 makes a field optional, it is null instead.
  for (const name of [
    'EvaluationDownload',
    'EvaluationError',
    'EvaluationResult',
    'EvaluationMetric',
  ]) {
    const schema = doc.components.schemas[name];
    expect([...schema.required].sort(), name).toEqual(Object.keys(schema.properties).sort());
  }
  expect(doc.components.schemas.EvaluationDownload.properties.expires_at.type).toEqual([
    'string',
    'null',
  ]);
  expect(doc.components.schemas.ApiErrorBody.required.sort()).toEqual([
    'code',
    'details',
    'message',
    'param',
    'request_id',
    'type',
  ]);
});
