import { expect, test } from 'vitest';
import { envelopeText, errorEnvelope } from '../src/core/envelope.js';
import { ApiError, apiError, ERROR_CATALOG } from '../src/core/errors.js';

test('an ApiError is an Error (Hono hands only Errors to onError) without a stack trace', () => {
  const err = apiError('resource_not_found', { message: 'No such thing.', param: 'thing_id' });
  expect(err).toBeInstanceOf(Error);
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({
    code: 'resource_not_found',
    status: 404,
    type: 'not_found_error',
    message: 'No such thing.',
    param: 'thing_id',
    details: null,
    headers: {},
  });
  expect(err.stack).toBe('Error: No such thing.');
  expect(String(err)).toBe('Error: No such thing.');
});

test('an ApiError takes the catalog default message and status, or a fault rule own status', () => {
  expect(apiError('run_not_ready').message).toBe(ERROR_CATALOG.run_not_ready.message);
  const custom = ApiError.of('made_up_conflict', { status: 409, headers: { 'Retry-After': '3' } });
  expect(custom).toMatchObject({
    status: 409,
    type: 'conflict_error',
    headers: { 'Retry-After': '3' },
  });
  expect(custom.message).toBe(ERROR_CATALOG.api_error.message);
});

test('an error answer text is what JSON.stringify writes of its envelope, byte for byte', () => {
  const errors = [
    apiError('resource_not_found', { message: "No such run: 'eval_1'.", param: 'run_id' }),
    apiError('parameter_invalid', { message: 'Quote " backslash \\ tab \t line \n é 😀 \u2028' }),
    ApiError.of('made_up "code"\u0001', { status: 409, details: { a: [1, null, 'x"'], b: {} } }),
    apiError('rate_limit_exceeded', { details: { requests_per_minute: 60 } }),
  ];
  for (const err of errors) {
    for (const requestId of ['req_01KDVDNA00S5FTMCE8PG9Y8PE0', null]) {
      const envelope = errorEnvelope(err, requestId);
      expect(envelopeText(envelope)).toBe(JSON.stringify(envelope));
    }
  }
});
