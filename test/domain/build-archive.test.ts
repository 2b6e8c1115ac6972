import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { type ArchiveEntry, buildArchive } from '../../src/core/archive.js';

const ROOT = 'eval_01JABCDEFGHJKMNPQRSTVWXYZ';
const MTIME_MS = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const LONG_DIR = `${'d'.repeat(70)}/${'e'.repeat(40)}`;

const ENTRIES: ArchiveEntry[] = [
  { path: 'summary.json', content: '{"pass_rate":0.5}\n' },
  { path: 'episodes/0002.json', content: new Uint8Array(1000).fill(7) },
  { path: 'episodes/0001.json', content: '' },
  { path: 'a-b.txt', content: 'dash sorts before slash' },
  { path: 'a/x.txt', content: 'x' },
  { path: 'a.txt', content: 'dot sorts before slash' },
  { path: 'uni/\uFF5E.txt', content: 'wave' },
  { path: 'uni/\u{1F600}.txt', content: 'smile, after the wave in UTF-8 byte order' },
  { path: `${LONG_DIR}/video.bin`, content: new Uint8Array(512).fill(1) },
];

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-archive-'));
  tempDirs.push(dir);
  return dir;
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A minimal independent ustar reader, to check header fields tar listings do not show. */
function readTar(tar: Buffer) {
  const headers = [];
  let offset = 0;
  while (offset + 512 <= tar.length && tar[offset] !== 0) {
    const block = tar.subarray(offset, offset + 512);
    const text = (from: number, size: number) =>
      block
        .subarray(from, from + size)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const checksumBlock = Buffer.from(block);
    checksumBlock.fill(0x20, 148, 156);
    const sum = checksumBlock.reduce((total, byte) => total + byte, 0);
    const size = Number.parseInt(text(124, 12), 8);
    const prefix = text(345, 155);
    headers.push({
      name: prefix ? `${prefix}/${text(0, 100)}` : text(0, 100),
      raw: block,
      size,
      sumOk: block.toString('latin1', 148, 156) === `${sum.toString(8).padStart(6, '0')}\0 `,
    });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return { headers, end: offset };
}

describe('buildArchive', () => {
  const archive = buildArchive(ROOT, ENTRIES, MTIME_MS);

  it('is deterministic and depends on the mtime', () => {
    const again = buildArchive(ROOT, ENTRIES.slice().reverse(), MTIME_MS);
    expect(again.bytes.equals(archive.bytes)).toBe(true);
    expect(again.sha256).toBe(archive.sha256);
    const later = buildArchive(ROOT, ENTRIES, MTIME_MS + 1000);
    expect(later.bytes.equals(archive.bytes)).toBe(false);
    // Sub-second differences vanish: tar stores whole seconds.
    expect(buildArchive(ROOT, ENTRIES, MTIME_MS - 678).bytes.equals(archive.bytes)).toBe(true);
  });

  it('keeps the tar bytes of earlier versions (the gzip layer depends on the zlib build)', () => {
    // Recorded before the tar writer was rewritten for speed: published archive digests
    // must not change with a refactor.
    expect(sha256(gunzipSync(archive.bytes))).toBe(
      '480df6b1c9d3607a973552ba3450aa195b159e2da09109be44dd455e76c83301',
    );
  });

  it('reports the digest of its bytes and a byte-ordered file manifest', () => {
    expect(archive.sha256).toBe(sha256(archive.bytes));
    const expected = ENTRIES.map(({ path: p, content }) => {
      const data = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
      return { path: p, bytes: data.length, sha256: sha256(data) };
    }).sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
    expect(archive.files).toEqual(expected);
  });

  it('writes a normalised gzip header', () => {
    const header = archive.bytes.subarray(0, 10);
    expect([...header.subarray(0, 4)]).toEqual([0x1f, 0x8b, 8, 0]);
    expect([...header.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect(header[8]).toBe(0); // XFL as zlib writes it for the default level 6
    expect(header[9]).toBe(255);
  });

  it('writes ustar headers in byte order, directories first, padded to a 10240-byte record', () => {
    const tar = gunzipSync(archive.bytes);
    expect(tar.length % 10240).toBe(0);
    const { headers, end } = readTar(tar);
    expect(tar.subarray(end).every((byte) => byte === 0)).toBe(true);
    expect(tar.length - end).toBeGreaterThanOrEqual(1024);
    const names = headers.map((h) => h.name.slice(ROOT.length + 1));
    expect(names).toEqual([
      '',
      'a-b.txt',
      'a.txt',
      'a/',
      'a/x.txt',
      `${LONG_DIR.split('/')[0]}/`,
      `${LONG_DIR}/`,
      `${LONG_DIR}/video.bin`,
      'episodes/',
      'episodes/0001.json',
      'episodes/0002.json',
      'summary.json',
      'uni/',
      'uni/\uFF5E.txt',
      'uni/\u{1F600}.txt',
    ]);
    for (const { name, raw, sumOk } of headers) {
      const isDir = name.endsWith('/');
      expect(sumOk).toBe(true);
      expect(raw.toString('latin1', 100, 108)).toBe(isDir ? '0000755\0' : '0000644\0');
      expect(raw.toString('latin1', 108, 124)).toBe('0000000\u00000000000\0');
      expect(raw.toString('latin1', 136, 148)).toBe(`${Math.floor(MTIME_MS / 1000).toString(8)}\0`);
      expect(raw.toString('latin1', 156, 157)).toBe(isDir ? '5' : '0');
      expect(raw.toString('latin1', 257, 265)).toBe('ustar\u000000');
      expect(raw.subarray(265, 345).every((byte) => byte === 0)).toBe(true); // uname..devminor
    }
  });

  it('extracts with the system tar to the listed files', () => {
    const dir = tempDir();
    const file = path.join(dir, 'archive.tar.gz');
    fs.writeFileSync(file, archive.bytes);
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    execFileSync('tar', ['-xzf', file, '-C', out]);
    expect(fs.readdirSync(out)).toEqual([ROOT]);
    const extracted = fs
      .readdirSync(path.join(out, ROOT), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.relative(path.join(out, ROOT), path.join(d.parentPath, d.name)));
    expect(extracted.sort()).toEqual(archive.files.map((f) => f.path).sort());
    for (const listed of archive.files) {
      const target = path.join(out, ROOT, listed.path);
      const data = fs.readFileSync(target);
      expect({ bytes: data.length, sha256: sha256(data) }).toEqual({
        bytes: listed.bytes,
        sha256: listed.sha256,
      });
      expect(fs.statSync(target).mtimeMs).toBe(Math.floor(MTIME_MS / 1000) * 1000);
    }
  });

  it('lists modes, numeric owners and the mtime with tar -tv', () => {
    const dir = tempDir();
    const file = path.join(dir, 'archive.tar.gz');
    fs.writeFileSync(file, archive.bytes);
    const listing = execFileSync('tar', ['-tvzf', file, '--numeric-owner'], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC', LC_ALL: 'C' },
    });
    const lines = listing.trim().split('\n');
    expect(lines).toHaveLength(15);
    for (const line of lines) {
      const [mode, owner, , date, time, name] = line.split(/\s+/);
      expect(mode).toBe(name?.endsWith('/') ? 'drwxr-xr-x' : '-rw-r--r--');
      expect(owner).toBe('0/0');
      expect(`${date} ${time}`).toBe('2026-01-02 03:04');
      expect(name?.startsWith(`${ROOT}/`)).toBe(true);
    }
    expect(listing).toContain(`${ROOT}/${LONG_DIR}/video.bin`);
  });

  it('splits a path longer than 100 bytes into prefix and name', () => {
    const longPath = `${LONG_DIR}/video.bin`;
    expect(`${ROOT}/${longPath}`.length).toBeGreaterThan(100);
    const { headers } = readTar(gunzipSync(archive.bytes));
    const header = headers.find((h) => h.name === `${ROOT}/${longPath}`)!;
    expect(header.raw.toString('utf8', 345, 500).replace(/\0+$/, '')).toBe(
      `${ROOT}/${LONG_DIR.split('/')[0]}/${'e'.repeat(40)}`,
    );
  });

  it.each([
    ['empty', ''],
    ['absolute', '/etc/passwd'],
    ['parent segment', 'a/../b'],
    ['bare parent', '..'],
    ['dot segment', './a'],
    ['empty segment', 'a//b'],
    ['trailing slash', 'a/'],
    ['backslash', 'a\\b'],
    ['NUL', 'a\0b'],
    ['lone surrogate', 'a\uD800'],
    ['name over 100 bytes', 'x'.repeat(101)],
    ['prefix over 155 bytes', `${'p'.repeat(200)}/name`],
  ])('rejects a bad path: %s', (_label, bad) => {
    expect(() => buildArchive(ROOT, [{ path: bad, content: 'x' }], MTIME_MS)).toThrow(Error);
  });

  it('rejects duplicates, file/directory clashes, bad roots and bad mtimes', () => {
    const one = [{ path: 'a/b', content: '1' }];
    expect(() => buildArchive(ROOT, [...one, { path: 'a/b', content: '2' }], 0)).toThrow(
      /duplicate/,
    );
    expect(() => buildArchive(ROOT, [...one, { path: 'a', content: '2' }], 0)).toThrow(/both/);
    for (const root of ['', 'a/b', '..', '/tmp']) {
      expect(() => buildArchive(root, one, 0)).toThrow(Error);
    }
    for (const mtime of [-1000, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 33 * 1000]) {
      expect(() => buildArchive(ROOT, one, mtime)).toThrow(RangeError);
    }
  });

  it('builds an archive of 1,000 entries', () => {
    const entries = Array.from({ length: 1000 }, (_, i) => ({
      path: `episodes/${String(999 - i).padStart(4, '0')}.json`,
      content: JSON.stringify({ episode: 999 - i, pad: 'x'.repeat(280) }),
    }));
    const built = buildArchive(ROOT, entries, MTIME_MS);
    expect(built.files).toHaveLength(1000);
    expect(built.files[0]?.path).toBe('episodes/0000.json');
    const { headers } = readTar(gunzipSync(built.bytes));
    expect(headers).toHaveLength(1002);
    expect(headers.every((h) => h.sumOk)).toBe(true);
    const listing = execFileSync('tar', ['-tzf', '-'], { input: built.bytes, encoding: 'utf8' });
    expect(listing.trim().split('\n')).toHaveLength(1002);
  });
});
