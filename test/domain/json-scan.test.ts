/**
 * JSON text read in place (src/core/json-scan.ts) tells what `JSON.parse` tells: the same texts
 * accepted, and an object's member the same, for texts of every shape, however deep.
 */
import { expect, test } from 'vitest';
import { jsonMember } from '../../src/core/json-member.js';

/** The member as `JSON.parse` gives it: undefined when the text is not JSON or has none. */
function parsedMember(text: string, key: string): unknown {
  try {
    const value = JSON.parse(text) as Record<string, unknown> | null;
    return value !== null && typeof value === 'object' ? value[key] : undefined;
  } catch {
    return undefined;
  }
}

const deep = (n: number, inner: string) => `${'['.repeat(n)}${inner}${']'.repeat(n)}`;

const texts = [
  '{"account":"acct_1"}',
  ' { "account" : "acct_\\u0031" , "n" : [ 1, 2 ] } ',
  '{"acc\\u006funt":"escaped key"}',
  '{"account":"a","account":"b"}',
  '{"account":"a","account":5}',
  '{"account":null}',
  '{"account":{"nested":[1,{"account":"inner"}]}}',
  '{"other":{"account":"inner"}}',
  '{"__proto__":{"account":"x"}}',
  '["account","x"]',
  '"account"',
  '12',
  'null',
  '{}',
  '[]',
  `{"account":"x","a":${deep(100_000, '{"b":[1,"c",true,false,null,-1.5e-3,{}]}')}}`,
  `{"account":"x","a":${deep(100_000, '{"b":1')}}`,
  '{"account":"x","a":[1,2,]}',
  '{"account":"x",}',
  '{"account":"x"}}',
  '{"account":"x"',
  '{"account" "x"}',
  '{"account":"x\\q"}',
  '{"account":"x\\u00g1"}',
  '{"account":"x\u0001"}',
  '{"account":"x","n":01}',
  '{"account":"x","n":-}',
  '{"account":"x","n":1.e5}',
  '{"account":"x","n":1e}',
  '{"account":"x","n":.5}',
  '{"account":"x","n":+5}',
  '{"account":"x","n":NaN}',
  '{"account":"x","n":nul}',
  '{"account":"x","n":truefalse}',
  '{"account":"x"}\u00a0',
  '\ufeff{"account":"x"}',
  '{"account":"x"}\t\r\n ',
  '{"account":"\ud800 lone surrogate"}',
  "{'account':'x'}",
  '',
  ' ',
];

test('a member reads as JSON.parse reads it, and text JSON.parse refuses has none', () => {
  for (const text of texts)
    expect(jsonMember(text, 'account'), text.slice(0, 60)).toEqual(parsedMember(text, 'account'));
  expect(jsonMember('{"account":"a","account":"b"}', 'account')).toBe('b');
  expect(jsonMember(`{"account":"x","a":${deep(100_000, '1')}}`, 'account')).toBe('x');
});
