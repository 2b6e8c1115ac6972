/**
 * An inline scenario past a limit is refused from the body's text, before it is parsed (issue
 * 36): the answer is the one the route's schema gives the parsed body, for bodies of every shape
 * the text reader must tell as `JSON.parse` would (repeated keys, index keys, escapes, odd values,
 * text that is not JSON).
 */
import { expect, test } from 'vitest';
import { scenarioSchema } from '../../src/areas/scenarios/scenario-file.js';
import {
  scenarioBodySizeIssue,
  scenarioSizeIssue,
} from '../../src/areas/scenarios/scenario-size.js';
import { issueError } from '../../src/core/zod-issue.js';
import { loadScenarioRoute } from '../../src/world/control-scenarios.js';
import { testEmulator } from '../helpers.js';

const emu = testEmulator();
const bodySchema = (
  loadScenarioRoute(scenarioSchema(emu.emulator.deps.kinds)).request.body.content as {
    'application/json': { schema: import('zod').ZodType };
  }
)['application/json'].schema;

/** The answer the schema gives the parsed body: status and error, or 'accepted'. */
async function schemaAnswer(text: string) {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const result = await bodySchema.safeParseAsync(value);
  if (result.success) return 'accepted';
  const e = issueError(result.error.issues[0] as never);
  return { code: e.code, param: e.param, message: e.message };
}

const twin = (o: object) => JSON.stringify(o);
const many = (n: number, item: string) => Array.from({ length: n }, () => item).join(',');

/** Bodies over a limit, in the many ways JSON can say it, and some under or not JSON at all. */
const bodies: string[] = [
  `{"scenario":{"name":"big","accounts":[{"id":"a","twins":[${many(2_500, '{}')}]}]}}`,
  `{"scenario":{"name":"big","accounts":[{"id":"a","twins":[${many(300, twin({ generate_files: 100 }))}]}]}}`,
  `{"scenario":{"name":"big","accounts":[{"id":"a","twins":[${many(2, twin({ generate_files: 100_000 }))}]}]}}`,
  // Repeated keys: the last value counts, in the first key's place.
  `{"scenario":{"name":"big","accounts":[{"twins":[${many(2_500, '{}')}],"id":"a","twins":[]}]}}`,
  `{"scenario":{"name":"big","accounts":[{"twins":5,"runs":[${many(1_999, '{}')}],"twins":[${many(2, '{}')}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{}')}]}],"accounts":[]}}`,
  `{"scenario":{"accounts":[],"accounts":[{"x":[${many(2_500, '1')}]}]}}`,
  `{"name":5,"scenario":{"accounts":[{"x":[${many(2_500, '1')}]}]},"name":"n"}`,
  `{"name":"n","scenario":{"accounts":[{"x":[${many(2_500, '1')}]}]},"name":5}`,
  `{"name":null,"scenario":{"accounts":[{"x":[${many(2_500, '1')}]}]}}`,
  `{"name":"default","scenario":{"accounts":[{"x":[${many(2_500, '1')}]}]}}`,
  `{"scenario":{"accounts":[{"x":[${many(2_500, '1')}]}]},"extra":1}`,
  // Index keys come first in a parsed object, in numeric order.
  `{"scenario":{"accounts":[{"b":[${many(1_500, '1')}],"7":[${many(600, '1')}],"3":[1]}]}}`,
  `{"scenario":{"accounts":[{"b":[${many(1_500, '1')}],"4294967295":[${many(600, '1')}],"01":[1]}]}}`,
  // Escaped keys, and the rows of files, logs and generate_files in every form.
  `{"sc\\u0065nario":{"accounts":[{"t\\u0077ins":[{"gen\\u0065rate_files":30000}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[{"files":[${many(15_000, '0')}],"logs":[${many(15_000, '0')}]}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[{"logs":[${many(25_000, '0')}],"files":{}}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[{"generate_files":1e400},{"generate_files":-1e400}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[{"generate_files":"30000"},{"generate_files":20001}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[{"generate_files":30000,"generate_files":-5},{"generate_files":-0.5e5}]}]}}`,
  `{"scenario":{"accounts":[{"features":[${many(2_500, '"twins"')}],"twins":[[],null,"x",{"files":[${many(20_001, '1')}]}]}]}}`,
  `{"scenario":{"faults":[${many(2_001, '{}')}]}}`,
  `{"scenario":{"outcome_rules":[${many(1_000, '{}')}],"faults":[${many(1_001, '{}')}]}}`,
  `{"scenario":{"faults":[${many(2_001, '{}')}],"faults":{}}}`,
  `{"scenario":{"accounts":[${many(2_001, '{}')}]}}`,
  `{"scenario":{"accounts":[${many(1_999, '[]')},{"k":[1,2]}]}}`,
  // Items holding lists and objects: a list's length counts its own members only.
  `{"scenario":{"accounts":[{"x":[${many(1_000, ' [ [1,2] , {"a":[3,{"b":[]}]} ] ')}],"y":[${many(1_000, '{"c":[5,6]}')}]}]}}`,
  `{"scenario":{"accounts":{"0":{"twins":[${many(2_500, '{}')}]}}}}`,
  `{"scenario":[{"accounts":[{"twins":[${many(2_500, '{}')}]}]}]}`,
  `{"scenario":null}`,
  `[{"scenario":{"accounts":[{"twins":[${many(2_500, '{}')}]}]}}]`,
  ` \t\r\n{ "scenario" : { "accounts" : [ { "twins" : [ ${many(2_500, ' { "s\\"\\\\\\/\\b\\f\\n\\r\\t" : [ true , false , null , -0.5E+3 ] } ')} ] } ] } } \n`,
  // Not JSON, each a small step from the one above.
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{}')}]}]}}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{}')},]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{"a":01}')}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{"a":1.}')}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{"a":+1}')}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{"a":"\\x"}')}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{"a":"\\u12"}')}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{"a":"\t"}')}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{"a":tru}')}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{a:1}')}]}]}}`,
  `\ufeff{"scenario":{"accounts":[{"twins":[${many(2_500, '{}')}]}]}}`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{}')}]}]}}\u00a0`,
  `{"scenario":{"accounts":[{"twins":[${many(2_500, '{}')}]}]}`,
  '',
];

test('each body refused from its text answers as its schema does, and the others are left to it', async () => {
  for (const text of bodies) {
    const expected = await schemaAnswer(text);
    const issue = scenarioBodySizeIssue(text);
    if (!issue) {
      // Left to the schema, which does not refuse it for its size.
      if (typeof expected === 'object')
        expect(expected.message, text.slice(0, 80)).not.toMatch(/This scenario makes/);
      continue;
    }
    const e = issueError({
      code: 'custom',
      path: ['scenario', ...issue.path],
      message: issue.message,
    });
    expect({ code: e.code, param: e.param, message: e.message }, text.slice(0, 80)).toEqual(
      expected,
    );
  }
  // The bodies over a limit with a valid name are all told from the text.
  const told = bodies.filter((t) => scenarioBodySizeIssue(t) !== undefined);
  expect(told.length).toBe(22);
});

test('the text and the parsed data count alike', () => {
  for (const text of bodies) {
    let value: { scenario?: unknown };
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    const nameOk =
      typeof value !== 'object' || value === null || Array.isArray(value)
        ? false
        : !('name' in value) || typeof (value as { name: unknown }).name === 'string';
    const fromText = scenarioBodySizeIssue(text);
    const fromData = nameOk ? scenarioSizeIssue(value.scenario) : undefined;
    expect(fromText, text.slice(0, 80)).toEqual(fromData);
  }
});

test("the route answers a refused inline load from its text with the schema's answer", async () => {
  for (const text of bodies.slice(0, 6)) {
    const res = await emu.api('POST', '/_control/scenarios/load', { secret: null, body: text });
    const expected = await schemaAnswer(text);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject(expected as object);
    expect(res.json.error.type).toBe('invalid_request_error');
  }
  expect((await emu.control('GET', '/scenarios')).loaded).toBe('default');
});
