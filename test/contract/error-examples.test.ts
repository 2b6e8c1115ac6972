/**
 * What Swagger UI shows on /docs (issue 35 item 5): each error response of each operation has an
 * example of its own (a code it declares, the type of its status, a `param` only where one
 * applies), the examples of a 400 and a 404 are what the emulator answers, and the Authorize box
 * names the keys of the shipped default scenario.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { errorTypeForStatus } from '../../src/core/errors.js';
import { DEFAULT_SECRET, servedDocument, testEmulator } from '../helpers.js';
import { ROOT } from './documents.js';

interface ErrorExample {
  type: string;
  code: string;
  message: string;
  param: string | null;
}
interface Response {
  'x-error-codes'?: string[];
  'x-inferred'?: boolean;
  content?: { 'application/json'?: { example?: { error: ErrorExample } } };
}
interface Operation {
  operationId: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: { 'application/json': { schema: { $ref?: string } } } };
  responses: Record<string, Response>;
}
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown> }>;
    securitySchemes: { ApiKeyAuth: { description: string } };
  };
};

/** The names an error's `param` may take on `op`: its parameters and its body's fields. */
function paramsOf(doc: Doc, op: Operation): string[] {
  const ref = op.requestBody?.content['application/json'].schema.$ref ?? '';
  const body = doc.components.schemas[ref.split('/').at(-1)!]?.properties ?? {};
  return [...(op.parameters ?? []).map((p) => p.name), ...Object.keys(body)];
}

async function served() {
  return { emu: testEmulator(), doc: (await servedDocument()) as Doc };
}

/** Every error response of every operation, with its example. */
function errorResponses(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => ({ path, method, op, status: Number(status), response })),
    ),
  );
}

test('each error response has an example of its own: its code, its type, a param that applies', async () => {
  const doc = (await servedDocument()) as Doc;
  const wrong: string[] = [];
  const responses = errorResponses(doc);
  for (const { op, status, response } of responses) {
    const example = response.content?.['application/json']?.example?.error;
    const where = `${op.operationId} ${status}`;
    if (!example) {
      wrong.push(`${where}: no example`);
      continue;
    }
    if (!response['x-error-codes']?.includes(example.code))
      wrong.push(`${where}: ${example.code} is not one of ${response['x-error-codes']}`);
    if (example.type !== errorTypeForStatus(status)) wrong.push(`${where}: type ${example.type}`);
    // A body field's dotted path names a field of the body first: `config.cameras`.
    const params = paramsOf(doc, op);
    if (example.param !== null && !params.includes(example.param.split('.')[0]!))
      wrong.push(`${where}: param ${example.param} is none of ${params.join(', ')}`);
  }
  expect(wrong).toEqual([]);
  // Not one example for all: a 401 is about the key, a 404 names the operation's resource.
  const examples = (path: string, method: string) =>
    Object.values(doc.paths[path]![method]!.responses).map(
      (r) => r.content?.['application/json']?.example?.error,
    );
  const codes = examples('/v1/keys/me', 'get').flatMap((e) => (e ? [`${e.code}`] : []));
  expect(new Set(codes).size).toBe(codes.length - 2); // 500, 503 and 504 all answer api_error
  expect(examples('/v1/twins/{twin_id}', 'get')).toContainEqual(
    expect.objectContaining({ message: expect.stringMatching(/^No such twin: 'twin_/) }),
  );
  const me = doc.paths['/v1/keys/me']!.get!.responses;
  expect(me['401']!.content!['application/json']!.example!.error).toMatchObject({
    code: 'unauthenticated',
    param: null,
  });
  expect(me['429']!.content!['application/json']!.example!.error.code).toBe('rate_limit_exceeded');
});

test("a 404's and a 400's examples are what the emulator answers for that operation", async () => {
  const { emu, doc } = await served();
  const differ: string[] = [];
  let checked = 0;
  for (const { path, method, op, status, response } of errorResponses(doc)) {
    if (status !== 404 && status !== 400) continue;
    const example = response.content!['application/json']!.example!.error;
    // A route's own example (a camera the dataset lacks) needs a request of its own.
    if (response['x-inferred'] || (status === 400 && example.code !== 'unsupported_version'))
      continue;
    // The example's id in the path: the 404 names it; a 400 sends an unknown version.
    const param = example.param ?? '';
    const id = /'([a-z]+_[0-9A-Z]{26})'/.exec(example.message)?.[1] ?? 'x';
    const filled = path.replace(`{${param}}`, id).replace(/\{[^}]+\}/g, 'x');
    const headers = status === 400 ? { 'service-version': '1999-01-01' } : undefined;
    const res = await emu.api(method.toUpperCase(), filled, { headers });
    const answered = res.json?.error as ErrorExample | undefined;
    checked += 1;
    if (res.status !== status || answered?.message !== example.message || answered.param !== param)
      differ.push(`${op.operationId} ${status}: ${res.status} ${JSON.stringify(answered)}`);
  }
  expect(differ).toEqual([]);
  expect(checked).toBeGreaterThan(100);
});

test('the Authorize box names the default key of the shipped default scenario', async () => {
  const doc = (await servedDocument()) as Doc;
  const hint = doc.components.securitySchemes.ApiKeyAuth.description;
  const scenario = JSON.parse(readFileSync(join(ROOT, 'scenarios/default.json'), 'utf8')) as {
    accounts: { keys: { secret: string }[] }[];
  };
  const secrets = scenario.accounts.flatMap((a) => a.keys.map((k) => k.secret));
  expect(secrets[0]).toBe(DEFAULT_SECRET);
  for (const secret of secrets) expect(hint).toContain(`\`${secret}\``);
});
