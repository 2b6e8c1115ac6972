/**
 * An archive's file listing packed into two strings and two number arrays instead of an object
 * per file: a worker thread sends it to the event loop's thread as a few copies and moves (a
 * 10,000-file listing as objects took the event loop 10 to 35 ms to receive), the archive cache
 * holds it in less memory, and a page of it is made into objects only when read.
 */
import type { FileEntry } from './records.js';

export interface PackedListing {
  /** The paths, in archive order (UTF-8 byte order), each followed by a `\n`. */
  paths: string;
  /** Where each path ends in `paths` (the index of its `\n`). */
  ends: Uint32Array<ArrayBuffer>;
  /** Each file's size in bytes. */
  sizes: Float64Array<ArrayBuffer>;
  /** Each file's SHA-256, 64 hex digits each, one after the other. */
  sha256: string;
}

/** @example packListing([{ path: 'a.json', bytes: 2, sha256: '...' }]).ends // Uint32Array [6] */
export function packListing(files: readonly FileEntry[]): PackedListing {
  const ends = new Uint32Array(files.length);
  const sizes = new Float64Array(files.length);
  let at = -1;
  files.forEach((f, i) => {
    at += f.path.length + 1;
    ends[i] = at;
    sizes[i] = f.bytes;
  });
  return {
    paths: files.map((f) => `${f.path}\n`).join(''),
    ends,
    sizes,
    sha256: files.map((f) => f.sha256).join(''),
  };
}

/** Bytes the listing holds, as the archive cache counts them. */
export const listingBytes = (l: PackedListing) =>
  l.paths.length + l.sha256.length + l.ends.byteLength + l.sizes.byteLength;

const pathAt = (l: PackedListing, i: number) =>
  l.paths.slice(i === 0 ? 0 : l.ends[i - 1]! + 1, l.ends[i]);

const entryAt = (l: PackedListing, i: number): FileEntry => ({
  path: pathAt(l, i),
  bytes: l.sizes[i]!,
  sha256: l.sha256.slice(64 * i, 64 * i + 64),
});

/**
 * The files after the path `after` ('' for the first page), at most `limit`, and whether more
 * follow; paths compare in UTF-8 byte order, as SQLite pages the listings it stores.
 * @example listingPage(listing, 'episodes/0001.json', 100)
 */
export function listingPage(l: PackedListing, after: string, limit: number) {
  const count = l.ends.length;
  let from = 0;
  if (after !== '') {
    const key = Buffer.from(after);
    let hi = count;
    while (from < hi) {
      const mid = (from + hi) >>> 1;
      if (Buffer.compare(Buffer.from(pathAt(l, mid)), key) <= 0) from = mid + 1;
      else hi = mid;
    }
  }
  const to = Math.min(count, from + limit);
  const data = Array.from({ length: to - from }, (_, k) => entryAt(l, from + k));
  return { data, hasMore: from + limit < count };
}
