/** The archive cache (store/archive-cache.ts): least recently used out first, within its budget. */
import { expect, test } from 'vitest';
import { createArchiveCache } from '../../src/store/archive-cache.js';

const bytes = (n: number) => Buffer.alloc(n, 1);

test('an archive read is kept over older ones when the budget is exceeded', () => {
  const cache = createArchiveCache(30);
  cache.put('a', bytes(10), 'sa');
  cache.put('b', bytes(10), 'sb');
  cache.put('c', bytes(10), 'sc');
  expect(cache.get('a')?.sha256).toBe('sa');
  cache.put('d', bytes(10), 'sd');
  expect(cache.get('b')).toBeUndefined();
  expect(['a', 'c', 'd'].map((id) => cache.get(id)?.sha256)).toEqual(['sa', 'sc', 'sd']);
  expect(cache.stats()).toEqual({ archives: 3, bytes: 30, budgetBytes: 30 });
});

test('an archive bigger than the budget is not kept, and replacing one counts its bytes once', () => {
  const cache = createArchiveCache(30);
  cache.put('a', bytes(31), 'big');
  expect(cache.get('a')).toBeUndefined();
  cache.put('a', bytes(20), 'one');
  cache.put('a', bytes(25), 'two');
  expect(cache.stats()).toMatchObject({ archives: 1, bytes: 25 });
  cache.remove('a');
  cache.remove('absent');
  expect(cache.stats()).toMatchObject({ archives: 0, bytes: 0 });
});
