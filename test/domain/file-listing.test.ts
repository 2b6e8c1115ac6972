/** A packed file listing (src/engine/store/file-listing.ts) pages as the listing of objects it packs. */
import { expect, test } from 'vitest';
import { listingPage, packListing } from '../../src/engine/store/file-listing.js';

const digest = (c: string) => c.repeat(64);
// UTF-8 byte order: 'z' (0x7a) before 'é' (0xc3 0xa9), though not in UTF-16 for every pair.
const FILES = ['a.json', 'b/c.json', 'line\nbreak', 'z.txt', 'é.txt', '😀.bin'].map((path, i) => ({
  path,
  bytes: 2 ** 33 + i,
  sha256: digest(String(i)),
}));

test('pages by path in UTF-8 byte order, with has_more, each entry as it was packed', () => {
  const listing = packListing(FILES);
  expect(listingPage(listing, '', 100)).toEqual({ data: FILES, hasMore: false });
  expect(listingPage(listing, '', 2)).toEqual({ data: FILES.slice(0, 2), hasMore: true });
  expect(listingPage(listing, 'b/c.json', 2)).toEqual({ data: FILES.slice(2, 4), hasMore: true });
  expect(listingPage(listing, 'line', 10).data[0]).toEqual(FILES[2]);
  expect(listingPage(listing, 'z.txt', 10)).toEqual({ data: FILES.slice(4), hasMore: false });
  expect(listingPage(listing, '😀.bin', 10)).toEqual({ data: [], hasMore: false });
});

test('an empty listing has no page', () => {
  expect(listingPage(packListing([]), '', 10)).toEqual({ data: [], hasMore: false });
  expect(listingPage(packListing([]), 'a', 10)).toEqual({ data: [], hasMore: false });
});
