/**
 * An archive's file listing packed into four byte arrays instead of an object per file: a worker
 * thread moves it to the event loop's thread with the archive's bytes, nothing copied or made
 * there (a 10,000-file listing as objects took the event loop 10 to 35 ms to receive, and as
 * strings grew its heap by about 0.8 MB an archive); the archive cache holds it so, and a page of
 * it is made into objects only when read.
 */
import type { FileEntry } from '../../core/contract.js';

export interface PackedListing {
  /** The paths as UTF-8, one after the other, in archive order (UTF-8 byte order). */
  paths: Uint8Array<ArrayBuffer>;
  /** Where each path ends in `paths`. */
  ends: Uint32Array<ArrayBuffer>;
  /** Each file's size in bytes. */
  sizes: Float64Array<ArrayBuffer>;
  /** Each file's SHA-256, 32 bytes each, one after the other. */
  sha256: Uint8Array<ArrayBuffer>;
}

/** @example packListing([{ path: 'a.json', bytes: 2, sha256: '...' }]).ends // Uint32Array [6] */
export function packListing(files: readonly FileEntry[]): PackedListing {
  const names = files.map((f) => Buffer.from(f.path));
  const paths = new Uint8Array(names.reduce((n, b) => n + b.length, 0));
  const ends = new Uint32Array(files.length);
  const sizes = new Float64Array(files.length);
  const sha256 = new Uint8Array(32 * files.length);
  let at = 0;
  files.forEach((f, i) => {
    paths.set(names[i]!, at);
    at += names[i]!.length;
    ends[i] = at;
    sizes[i] = f.bytes;
    sha256.set(Buffer.from(f.sha256, 'hex'), 32 * i);
  });
  return { paths, ends, sizes, sha256 };
}

/** Bytes the listing holds, as the archive cache counts them. */
export const listingBytes = (l: PackedListing) =>
  l.paths.byteLength + l.ends.byteLength + l.sizes.byteLength + l.sha256.byteLength;

const bytesOf = (u: Uint8Array, start: number, end: number) =>
  Buffer.from(u.buffer, u.byteOffset + start, end - start);

const pathAt = (l: PackedListing, i: number) =>
  bytesOf(l.paths, i === 0 ? 0 : l.ends[i - 1]!, l.ends[i]!);

const entryAt = (l: PackedListing, i: number): FileEntry => ({
  path: pathAt(l, i).toString('utf8'),
  bytes: l.sizes[i]!,
  sha256: bytesOf(l.sha256, 32 * i, 32 * i + 32).toString('hex'),
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
      if (Buffer.compare(pathAt(l, mid), key) <= 0) from = mid + 1;
      else hi = mid;
    }
  }
  const to = Math.min(count, from + limit);
  const data = Array.from({ length: to - from }, (_, k) => entryAt(l, from + k));
  return { data, hasMore: from + limit < count };
}
