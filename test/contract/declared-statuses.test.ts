/**
 * Every status an operation answers is declared in `/openapi.json` (issue 27 item 6): each
 * operation is called without a key, with an unknown `Service-Version`, with a malformed
 * `X-Emulator-Fault`, with a body over 1 MiB where it can carry one, and plainly (unknown ids,
 * an empty body); each answer's status must be one the document lists for the operation. Every
 * status a fault can give is declared too, with its code in `x-error-codes` (issue 35 item 4).
 */
import { expect, test } from 'vitest';
import { FAULT_STATUSES } from '../../src/areas/faults/contract.js';
import { DEFAULT_SECRET, servedDocument, testEmulator } from '../helpers.js';

type Operation = { operationId: string; security?: unknown[]; responses: Record<string, unknown> };

const BODY_METHODS = ['post', 'put', 'patch', 'delete'];

test('every answer of every operation has its status declared', async () => {
  const { app } = testEmulator();
  const doc = (await servedDocument()) as { paths: Record<string, Record<string, Operation>> };
  const undeclared: string[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const path = template.replace(/\{[^}]+\}/g, 'unknown_01KA0000000000000000000000');
    for (const [method, op] of Object.entries(item)) {
      const declared = Object.keys(op.responses).map(Number);
      const keyless = op.security?.length === 0;
      const auth = { authorization: `Bearer ${DEFAULT_SECRET}` };
      const calls: [string, RequestInit][] = [
        ['plain', { headers: { ...auth, 'content-type': 'application/json' }, body: '{}' }],
        ['version', { headers: { ...auth, 'service-version': '1999-01-01' } }],
        ['fault header', { headers: { ...auth, 'x-emulator-fault': 'bogus' } }],
      ];
      if (!keyless) calls.push(['no key', {}]);
      if (BODY_METHODS.includes(method))
        calls.push([
          'over 1 MiB',
          {
            headers: { ...auth, 'content-type': 'application/json' },
            body: `"${'x'.repeat(1_100_000)}"`,
          },
        ]);
      for (const [what, init] of calls) {
        const withBody = BODY_METHODS.includes(method) ? init : { ...init, body: undefined };
        const res = await app.request(path, { ...withBody, method: method.toUpperCase() });
        await res.arrayBuffer();
        if (!declared.includes(res.status))
          undeclared.push(
            `${op.operationId} (${what}): ${res.status}, declared ${declared.join(', ')}`,
          );
      }
    }
  }
  expect(undeclared).toEqual([]);
});

type Declared = {
  operationId: string;
  'x-inferred'?: boolean;
  responses: Record<string, { 'x-error-codes'?: string[]; 'x-inferred'?: boolean }>;
};

test('every status a fault can give an operation is declared, with the code it answers', async () => {
  const { app } = testEmulator();
  const doc = (await servedDocument()) as { paths: Record<string, Record<string, Declared>> };
  const undeclared: string[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const path = template.replace(/\{[^}]+\}/g, 'unknown_01KA0000000000000000000000');
    for (const [method, op] of Object.entries(item)) {
      for (const status of FAULT_STATUSES) {
        const headers = {
          authorization: `Bearer ${DEFAULT_SECRET}`,
          'x-emulator-fault': String(status),
        };
        const res = await app.request(path, { method: method.toUpperCase(), headers });
        const code = ((await res.json()) as { error: { code: string } }).error.code;
        const codes = op.responses[String(res.status)]?.['x-error-codes'] ?? [];
        if (res.status !== status || !codes.includes(code))
          undeclared.push(`${op.operationId}: ${res.status} ${code}, declared ${codes.join(', ')}`);
      }
    }
  }
  expect(undeclared).toEqual([]);
});

test("a status the operation's route does not list is flagged x-inferred; a listed one is not", async () => {
  const doc = (await servedDocument()) as { paths: Record<string, Record<string, Declared>> };
  const responses = (path: string, method: string) => doc.paths[path]![method]!.responses;
  // API document section 4.1 lists 502 for resume only; flaky-upstream answers it on create too.
  expect(responses('/v1/evaluations/{run_id}/resume', 'post')['502']).not.toHaveProperty(
    'x-inferred',
  );
  expect(responses('/v1/evaluations', 'post')['502']).toMatchObject({
    'x-inferred': true,
    'x-fault-only': true,
    'x-error-codes': ['launch_failed'],
  });
  // Verify and the proxy expect a service to answer what is not only a fault's.
  expect(responses('/v1/evaluations/{run_id}/resume', 'post')['502']).not.toHaveProperty(
    'x-fault-only',
  );
  expect(responses('/v1/keys/me', 'get')['500']).toMatchObject({ 'x-error-codes': ['api_error'] });
  expect(responses('/v1/keys/me', 'get')['500']).not.toHaveProperty('x-fault-only');
  expect(responses('/v1/objects', 'post')['409']).toMatchObject({
    'x-error-codes': ['idempotency_key_reused'],
  });
  expect(responses('/v1/objects', 'post')['409']).not.toHaveProperty('x-fault-only');
  expect(responses('/v1/keys/me', 'get')['503']).toMatchObject({
    'x-inferred': true,
    'x-error-codes': ['api_error'],
  });
  // A 409 a fault gives is the operation's own conflict first.
  expect(responses('/v1/evaluations/{run_id}/resume', 'post')['409']?.['x-error-codes']).toEqual([
    'not_resumable',
    'idempotency_key_reused',
  ]);
});
