/**
 * Files the user names (scenario files, `--snapshot FILE`) read as regular files of at most a
 * given size: a link to `/dev/zero`, a FIFO or a 60 MB file is refused by what `stat` says,
 * before a byte of it is read (issue 36).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { MESSAGES } from './errors.js';

/** Why a file was not read, in a sentence; the caller names the file. */
export class FileRefused extends Error {}

/** What a file that is not a regular one is, for the message. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Throws `FileRefused` unless `stats` are a regular file's of at most `limit` bytes. */
function check(stats: Stats, limit: number, what: string): void {
  if (!stats.isFile()) throw new FileRefused(MESSAGES.fileNotRegular(kindOf(stats)));
  if (stats.size > limit) throw new FileRefused(MESSAGES.fileTooLarge(stats.size, what, limit));
}

/**
 * The file's stats (a link followed) once they show a regular file of at most `limit` bytes;
 * `FileRefused` otherwise, and the file's own error (ENOENT, EACCES) as it is.
 * @example regularFileStats('scenarios/mine.yaml', 1024 * 1024, 'a scenario file')
 */
export function regularFileStats(path: string, limit: number, what: string): Stats {
  const stats = statSync(path);
  check(stats, limit, what);
  return stats;
}

/**
 * The text of a regular file of at most `limit` bytes (`what` names such a file in the message).
 * It is checked before it is opened, opened without blocking (a FIFO put in its place
 * meanwhile), checked again, and read to at most `limit` bytes, even if it grows.
 * @example readRegularFile('seeded.snapshot.json', 128 * 1024 * 1024, 'a snapshot file')
 */
export function readRegularFile(path: string, limit: number, what: string): string {
  return readRegularBytes(path, limit, what).toString('utf8');
}

/** The bytes of a regular file of at most `limit` bytes, read as `readRegularFile` reads. */
export function readRegularBytes(path: string, limit: number, what: string): Buffer {
  regularFileStats(path, limit, what);
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    check(stats, limit, what);
    const buffer = Buffer.alloc(Math.min(stats.size, limit) + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > limit) throw new FileRefused(MESSAGES.fileTooLarge(length, what, limit));
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
