import { expect, test } from 'vitest';
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
