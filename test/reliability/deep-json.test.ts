import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/http/json-depth.js';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';

// Issue 9 item 5: JSON nested deeper than about 4,100 levels answered 500 `api_error` (a stack
// overflow in `JSON.stringify`); any body deeper than the limit now answers 400.

let emu: RunningEmulator;
let key: Record<string, string>;
beforeAll(async () => {
  emu = await startEmulator();
  key = (await emu.control.newAccount()).headers as Record<string, string>;
});
afterAll(() => emu.stop());

interface ApiErrorBody {
  code: string;
  type: string;
  message: string;
}

function nested(depth: number): string {
  return `{"scenario_id":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
}

async function post(path: string, body: string): Promise<{ status: number; error: ApiErrorBody }> {
  const res = await fetch(`${emu.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...key, 'content-type': 'application/json' },
    body,
  });
  const json = (await res.json()) as { error: ApiErrorBody };
  return { status: res.status, error: json.error };
}

const depthMessage = `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`;

for (const depth of [MAX_JSON_DEPTH + 1, 5_000, 200_000]) {
  test(`a product body nested ${depth} levels answers 400 parameter_invalid`, async () => {
    const { status, error } = await post('/v1/evaluations', nested(depth));
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: 'parameter_invalid', message: depthMessage });
  });

  test(`a control body nested ${depth} levels answers 400 parameter_invalid`, async () => {
    const { status, error } = await post('/_control/accounts', nested(depth));
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: 'parameter_invalid', message: depthMessage });
  });
}

test('an operation that takes no body reads none: a deep one to resume answers as without it', async () => {
  const { status, error } = await post(
    '/v1/evaluations/eval_01KA0000000000000000000000/resume',
    nested(5_000),
  );
  expect(status).toBe(404);
  expect(error.code).toBe('resource_not_found');
});

test('a body exactly at the limit passes the depth check (validation answers instead)', async () => {
  const { status, error } = await post('/v1/evaluations', nested(MAX_JSON_DEPTH));
  expect(status).toBe(400);
  expect(error.code).toBe('parameter_invalid');
  expect(error.message).not.toBe(depthMessage);
});

test('brackets inside strings do not count towards the depth', async () => {
  const { error } = await post(
    '/v1/evaluations',
    JSON.stringify({ scenario_id: '['.repeat(5000) }),
  );
  expect(error.message).not.toBe(depthMessage);
});

test('a flat array of 200,000 items (under 1 MiB) answers 400, not 500', async () => {
  const body = `{"scenario_id":"x","pad":[${Array(200_000).fill('1').join(',')}]}`;
  const { status, error } = await post('/v1/evaluations', body);
  expect(status).toBe(400);
  expect(error.type).toBe('invalid_request_error');
});
