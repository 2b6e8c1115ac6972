/** The archive cache (store/archive-cache.ts): least recently used out first, within its budget. */
import { expect, test } from 'vitest';
import { createArchiveCache } from '../../src/engine/store/archive-cache.js';
import { listingPage, packListing } from '../../src/engine/store/file-listing.js';

const bytes = (n: number) => Buffer.alloc(n, 1);
/** An archive of `n` bytes with no listing, whose digest is `sha256`. */
const archive = (n: number, sha256: string) => ({
  bytes: bytes(n),
  sha256,
  listing: packListing([]),
});

test('an archive read is kept over older ones when the budget is exceeded', () => {
  const cache = createArchiveCache(30);
  cache.put('a', archive(10, 'sa'));
  cache.put('b', archive(10, 'sb'));
  cache.put('c', archive(10, 'sc'));
  expect(cache.get('a')?.sha256).toBe('sa');
  cache.put('d', archive(10, 'sd'));
  expect(cache.get('b')).toBeUndefined();
  expect(['a', 'c', 'd'].map((id) => cache.get(id)?.sha256)).toEqual(['sa', 'sc', 'sd']);
  expect(cache.stats()).toEqual({ archives: 3, bytes: 30, budgetBytes: 30 });
});

test('an archive bigger than the budget is not kept, and replacing one counts its bytes once', () => {
  const cache = createArchiveCache(30);
  cache.put('a', archive(31, 'big'));
  expect(cache.get('a')).toBeUndefined();
  cache.put('a', archive(20, 'one'));
  cache.put('a', archive(25, 'two'));
  expect(cache.stats()).toMatchObject({ archives: 1, bytes: 25 });
  cache.remove('a');
  cache.remove('absent');
  expect(cache.stats()).toMatchObject({ archives: 0, bytes: 0 });
});

test('a listing counts against the budget with its archive', () => {
  const cache = createArchiveCache(200);
  const files = [{ path: 'manifest.json', bytes: 10, sha256: 'f'.repeat(64) }];
  cache.put('a', { bytes: bytes(50), sha256: 'sa', listing: packListing(files) });
  // 50 bytes of archive, plus the path, 4 for its end, 8 for its size, 32 for its digest.
  expect(cache.stats()).toMatchObject({ archives: 1, bytes: 50 + 13 + 4 + 8 + 32 });
  expect(listingPage(cache.get('a')!.listing, '', 10).data).toEqual(files);
  cache.put('b', { bytes: bytes(50), sha256: 'sb', listing: packListing(files) });
  expect(cache.get('a')).toBeUndefined();
});
