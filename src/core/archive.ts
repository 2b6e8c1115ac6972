import { gzipSync } from 'node:zlib';
import { sha256Hex } from './canonical-json.js';

/** One file to store in an archive, at `${rootDir}/${path}`; a string is stored as UTF-8. */
export interface ArchiveEntry {
  path: string;
  content: Uint8Array | string;
}

/** A built `.tar.gz`, its SHA-256 and a manifest of its files (paths relative to the root). */
export interface BuiltArchive {
  bytes: Buffer;
  sha256: string;
  files: { path: string; bytes: number; sha256: string }[];
}

/** A tar member: a directory when `content` is null. `name` is the UTF-8 full path. */
interface Member {
  name: Buffer;
  content: Buffer | null;
}

const BLOCK = 512;
/** GNU tar's default record size (20 blocks); padding to it keeps strict old readers happy. */
const RECORD = 10240;
/** The largest value an 11-digit octal field (size, mtime) can hold. */
const MAX_OCTAL_11 = 0o77777777777;
const SLASH = 0x2f;

/**
 * The deterministic `.tar.gz` of `entries` under `<rootDir>/` (DESIGN.md section 4 "Archive"):
 * the tar of `tarOf`, gzipped by `gzipTar`. Same entries and mtime, same bytes.
 * @example buildArchive('run_01ABC', [{ path: 'manifest.json', content: '{}' }], 1_767_225_600_000)
 */
export function buildArchive(
  rootDir: string,
  entries: ArchiveEntry[],
  mtimeMs: number,
): BuiltArchive {
  const { tar, files } = tarOf(rootDir, entries, mtimeMs);
  return archiveOf(gzipSync(tar, GZIP_OPTIONS), files);
}

/**
 * The tar of `entries` under `<rootDir>/` (sorted members, uid/gid 0, fixed modes, `mtimeMs` in
 * every header) and the listing of its files; `archiveOf` makes the archive of its gzip.
 */
export function tarOf(rootDir: string, entries: ArchiveEntry[], mtimeMs: number) {
  checkPath(rootDir, 'root directory');
  if (rootDir.includes('/')) throw new Error(`buildArchive: root directory ${rootDir} has a /`);
  const mtime = Number.isFinite(mtimeMs) ? Math.floor(mtimeMs / 1000) : Number.NaN;
  if (!(mtime >= 0 && mtime <= MAX_OCTAL_11))
    throw new RangeError(`buildArchive: mtime ${mtimeMs} cannot be stored in a tar header`);
  const members = collectMembers(rootDir, entries);
  const rootLength = Buffer.byteLength(rootDir) + 1;
  const files = members
    .filter((m): m is Member & { content: Buffer } => m.content !== null)
    .map(({ name, content }) => ({
      path: name.toString('utf8', rootLength),
      bytes: content.length,
      sha256: sha256Hex(content),
    }));
  return { tar: writeTar(members, mtime), files };
}

/** How the tar is gzipped, synchronously or not: the same bytes either way. */
export const GZIP_OPTIONS = { level: 6 } as const;

/** The archive of a gzipped tar: its header normalised, its digest, its files. */
export function archiveOf(gz: Buffer, files: BuiltArchive['files']): BuiltArchive {
  const bytes = normaliseGzip(gz);
  return { bytes, sha256: sha256Hex(bytes), files };
}

/** Validates the entries and returns them with every implied directory, in archive order. */
function collectMembers(rootDir: string, entries: ArchiveEntry[]): Member[] {
  const files = new Map<string, Buffer>();
  const dirs = new Set<string>();
  for (const { path, content } of entries) {
    checkPath(path, 'entry path');
    if (files.has(path)) throw new Error(`buildArchive: duplicate entry path ${path}`);
    // Copy caller-owned bytes so later mutation cannot change what was hashed.
    files.set(
      path,
      typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content),
    );
    for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) {
      dirs.add(path.slice(0, i));
    }
  }
  const members: Member[] = [{ name: Buffer.from(`${rootDir}/`), content: null }];
  for (const dir of dirs) {
    if (files.has(dir)) throw new Error(`buildArchive: ${dir} is both a file and a directory`);
    members.push({ name: Buffer.from(`${rootDir}/${dir}/`), content: null });
  }
  for (const [path, content] of files) {
    members.push({ name: Buffer.from(`${rootDir}/${path}`), content });
  }
  return members.sort((a, b) => Buffer.compare(a.name, b.name));
}

/** Throws unless `path` is a clean relative `/`-separated path with nothing to escape the root. */
function checkPath(path: string, what: string): void {
  const fail = (problem: string) => {
    throw new Error(`buildArchive: ${what} ${JSON.stringify(path)} ${problem}`);
  };
  if (path === '') fail('is empty');
  if (path.startsWith('/')) fail('is absolute');
  // A lone surrogate would be encoded as U+FFFD, so two distinct paths could collide.
  if (path.includes('\\') || path.includes('\0') || /\p{Cs}/u.test(path))
    fail('contains a backslash, a NUL or a lone surrogate');
  if (path.split('/').some((s) => s === '' || s === '.' || s === '..'))
    fail('has an empty, . or .. segment');
}

/** The tar stream: each member's header and padded content, the end blocks, record padding. */
function writeTar(members: Member[], mtime: number): Buffer {
  let length = 0;
  for (const { content } of members) {
    length += BLOCK;
    if (content !== null) length += Math.ceil(content.length / BLOCK) * BLOCK;
  }
  const tar = Buffer.alloc(Math.ceil((length + 2 * BLOCK) / RECORD) * RECORD);
  let offset = 0;
  for (const { name, content } of members) {
    const block = tar.subarray(offset, offset + BLOCK);
    writeHeader(block, name, content?.length ?? 0, mtime, content === null);
    offset += BLOCK;
    if (content === null) continue;
    content.copy(tar, offset);
    offset += Math.ceil(content.length / BLOCK) * BLOCK;
  }
  return tar;
}

/** A 512-byte ustar header, written into the zero-filled `block`; unused fields stay NUL. */
function writeHeader(block: Buffer, name: Buffer, size: number, mtime: number, isDir: boolean) {
  const [prefix, base] = splitName(name);
  base.copy(block, 0);
  writeOctal(block, 100, 8, isDir ? 0o755 : 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, mtime);
  block.write(isDir ? '5' : '0', 156, 'latin1');
  block.write('ustar\u000000', 257, 'latin1');
  prefix.copy(block, 345);
  // The checksum is the byte sum with the checksum field itself counted as eight spaces.
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += block[i]!;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'latin1');
}

/** Zero-padded octal digits filling all but the last byte of the field, then a NUL. */
function writeOctal(block: Buffer, offset: number, width: number, value: number): void {
  const digits = value.toString(8).padStart(width - 1, '0');
  if (digits.length > width - 1) throw new RangeError(`buildArchive: ${value} overflows a field`);
  block.write(`${digits}\u0000`, offset, 'latin1');
}

/**
 * The ustar prefix (<= 155 bytes) and name (<= 100) of a path, split at the rightmost `/` that
 * fits, as GNU tar does; a `/` byte never falls inside a UTF-8 character.
 */
function splitName(name: Buffer): [Buffer, Buffer] {
  if (name.length <= 100) return [Buffer.alloc(0), name];
  // The rightmost `/` with at most 155 bytes before it; any split further left has a longer
  // name. The last byte is skipped so that a directory's trailing `/` never leaves an empty name.
  const i = name.lastIndexOf(SLASH, Math.min(155, name.length - 2));
  if (i > 0 && name.length - i - 1 <= 100) return [name.subarray(0, i), name.subarray(i + 1)];
  throw new Error(`buildArchive: path ${name.toString('utf8')} does not fit a ustar header`);
}

/** gzip at zlib's default level, with the header bytes that vary by time or platform fixed. */
function normaliseGzip(gz: Buffer): Buffer {
  // FLG 0 means no FEXTRA, FNAME, FCOMMENT or FHCRC, so bytes 4..9 are MTIME, XFL and OS and
  // editing them needs no header CRC update.
  if (gz[0] !== 0x1f || gz[1] !== 0x8b || gz[3] !== 0)
    throw new Error('buildArchive: unexpected gzip header from zlib');
  gz.fill(0, 4, 8); // MTIME: zlib already writes 0, but the output must not rely on that.
  gz[9] = 255; // OS: zlib writes its build platform's code (3 on Unix); 255 means unknown.
  return gz;
}
