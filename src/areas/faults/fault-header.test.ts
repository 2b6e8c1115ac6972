import { expect, test } from 'vitest';
import { ErrorResponse } from './contract.js';
import { parseFaultHeader } from './fault-header.js';

test('a status alone parses as the schema parses {status}, for every three-digit status', () => {
  for (let status = 100; status <= 999; status += 1) {
    const parsed = parseFaultHeader(String(status));
    const schema = ErrorResponse.safeParse({ status });
    if (schema.success) expect(parsed, String(status)).toEqual(schema.data);
    else
      expect(parsed, String(status)).toEqual({
        invalid: `status: ${schema.error.issues[0]?.message}`,
      });
  }
});

test('a status with parameters, or written otherwise, goes through the schema', () => {
  expect(parseFaultHeader('429;retry-after=7')).toEqual({ status: 429, retry_after: 7 });
  expect(parseFaultHeader('502;after')).toEqual({ status: 502, after: true });
  expect(parseFaultHeader('200;after')).toEqual({ invalid: expect.stringMatching(/^status: /) });
  expect(parseFaultHeader(' 429 ')).toEqual({ status: 429 });
  for (const value of ['0429', '4e2', '+42', '42', '429.0'])
    expect(parseFaultHeader(value), value).toHaveProperty('invalid');
});
