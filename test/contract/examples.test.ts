/**
 * "Try it out" on /docs and /_control/docs works as-is: every request body example of both
 * documents, sent with the path parameters' examples to a fresh emulator, succeeds (issue 13).
 */
import { expect, test } from 'vitest';
import { EVALUATION_EXAMPLE } from '../../src/kinds/evaluations/example.js';
import { createEmulator } from '../../src/tools/emulator.js';
import { DOCUMENTS } from './documents.js';

interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; example?: string; schema?: { example?: string } }[];
  requestBody?: { content: { 'application/json': { schema: SchemaLike } } };
}
interface SchemaLike {
  $ref?: string;
  example?: unknown;
}

async function withExamples(prefix: string, docPath: string) {
  const emulator = createEmulator({ seed: '0', clock: 'manual' });
  const doc = (await (await emulator.app.request(docPath)).json()) as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, SchemaLike> };
  };
  emulator.close();
  const out: { method: string; path: string; operationId: string; body: unknown }[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const schema = op.requestBody?.content['application/json'].schema;
      if (!schema) continue;
      const named = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
      let path = `${prefix}${template}`;
      for (const p of op.parameters ?? []) {
        if (p.in !== 'path') continue;
        const example = p.example ?? p.schema?.example;
        expect(example, `${op.operationId}: example of ${p.name}`).toBeDefined();
        path = path.replace(`{${p.name}}`, String(example));
      }
      out.push({ method, path, operationId: op.operationId, body: named?.example });
    }
  }
  return out;
}

test.each(Object.entries(DOCUMENTS))(
  'every request body example of the %s document works on a fresh emulator',
  async (name, docPath) => {
    const prefix = name === 'control' ? '/_control' : '';
    const operations = await withExamples(prefix, docPath);
    expect(operations.length).toBeGreaterThan(name === 'control' ? 10 : 8);
    for (const op of operations) {
      expect(op.body, `${op.operationId} has a request body example`).toBeDefined();
      const emulator = createEmulator({ seed: '0', clock: 'manual' });
      try {
        const res = await emulator.app.request(op.path, {
          method: op.method.toUpperCase(),
          headers: {
            Authorization: 'Bearer svc_test_emulator_default',
            'Content-Type': 'application/json',
          },
          body: JSON.stringify(op.body),
        });
        const text = await res.text();
        expect(res.status, `${op.operationId} ${JSON.stringify(op.body)}: ${text}`).toBeLessThan(
          300,
        );
      } finally {
        emulator.close();
      }
    }
  },
);

test('the Evaluation example is what a fresh emulator answers for its spec', async () => {
  const emulator = createEmulator({ seed: '0', clock: 'manual' });
  try {
    const headers = {
      Authorization: 'Bearer svc_test_emulator_default',
      'Content-Type': 'application/json',
      Host: '127.0.0.1:8710',
    };
    const created = await emulator.app.request('http://127.0.0.1:8710/v1/evaluations', {
      method: 'POST',
      headers,
      body: JSON.stringify({ spec: EVALUATION_EXAMPLE.spec }),
    });
    const { id } = (await created.json()) as { id: string };
    await emulator.app.request(
      'http://127.0.0.1:8710/_control/accounts/acct_00000000000000000000000001/clock/advance',
      { method: 'POST', headers, body: JSON.stringify({ seconds: 60 }) },
    );
    const res = await emulator.app.request(`http://127.0.0.1:8710/v1/evaluations/${id}`, {
      headers,
    });
    expect(await res.json()).toEqual(EVALUATION_EXAMPLE);
  } finally {
    emulator.close();
  }
});
