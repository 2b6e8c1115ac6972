/**
 * Every status an operation answers is declared in `/openapi.json` (issue 27 item 6): each
 * operation is called without a key, with an unknown `Service-Version`, with a malformed
 * `X-Emulator-Fault`, with a body over 1 MiB where it can carry one, and plainly (unknown ids,
 * an empty body); each answer's status must be one the document lists for the operation.
 */
import { expect, test } from 'vitest';
import { DEFAULT_SECRET, testEmulator } from '../helpers.js';

type Operation = { operationId: string; security?: unknown[]; responses: Record<string, unknown> };

const BODY_METHODS = ['post', 'put', 'patch', 'delete'];

test('every answer of every operation has its status declared', async () => {
  const { app } = testEmulator();
  const doc = (await (await app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
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
