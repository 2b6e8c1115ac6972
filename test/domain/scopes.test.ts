import { expect, test } from 'vitest';
import { hasScope } from '../../src/core/scopes.js';

test('a scope is granted by itself, and read by write on the same resource only', () => {
  expect(hasScope(['evaluations:read'], 'evaluations:read')).toBe(true);
  expect(hasScope(['evaluations:write'], 'evaluations:read')).toBe(true);
  expect(hasScope(['evaluations:read'], 'evaluations:write')).toBe(false);
  expect(hasScope(['twins:write'], 'evaluations:read')).toBe(false);
  expect(hasScope(['usage:read'], 'usage:read')).toBe(true);
  expect(hasScope([], 'usage:read')).toBe(false);
  expect(hasScope(['evaluations:write'], 'evaluations')).toBe(false);
  expect(hasScope(['a:write'], 'a:read:x')).toBe(true);
  expect(hasScope(['a:write'], 'a:readx')).toBe(false);
});
