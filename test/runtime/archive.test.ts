/**
 * The archive of a succeeded run (DESIGN.md sections 1.4 and 4 "Archive" and "Result"; API
 * document sections 2.4, 2.5 and 4.5; DESIGN.md section 3 "Download", "Sim runs"): real
 * `.tar.gz` bytes, extracted here with the system `tar`, whose digests are the ones the API reports.
 */
import { expect, test } from 'vitest';
import { expectError } from '../helpers.js';
import {
  at,
  BASE,
  DEFAULT_END,
  expectEnvelope,
  extractArchive,
  freshAccount,
  HEX64,
  listArchive,
  type Runtime,
  raw,
  runtime,
  SPEC,
  sha256,
} from './support.js';

const EVALUATED = { ...SPEC, evaluators: ['collision', 'success_rate'] };

/** A succeeded default run with its body and served archive. */
async function succeeded(rt: Runtime = runtime(), spec: Record<string, unknown> = EVALUATED) {
  const { id } = await rt.create({ spec });
  await rt.advance(DEFAULT_END);
  const run = await rt.get(id);
  expect(run.status).toBe('succeeded');
  const archive = await rt.archive(id);
  expect(archive.status).toBe(200);
  return { rt, id, run, archive };
}

/** Every page of `/v1/sim_runs/{id}/files`. */
async function listFiles(rt: Runtime, id: string) {
  const res = await rt.call('GET', `/v1/sim_runs/${id}/files?limit=1000`);
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
  return res.json.data as { path: string; bytes: number; sha256: string; object: string }[];
}

const _episodePaths = (n: number) =>
  Array.from({ length: n }, (_, i) => `episodes/${String(i + 1).padStart(4, '0')}.json`);

test('tar members are sorted with uid/gid 0, fixed modes and the completion time; gzip has mtime 0 and no name', async () => {
  const { id, archive } = await succeeded();
  const members = listArchive(archive.bytes).map((line) => {
    const m = /^(\S+) (\d+)\/(\d+)\s+(\d+) (\S+ \S+) (.+)$/.exec(line);
    if (!m) throw new Error(`unexpected tar listing line: ${line}`);
    return { mode: m[1], uid: m[2], gid: m[3], time: m[5], name: m[6]! };
  });
  const names = members.map((m) => m.name);
  expect(names[0]).toBe(`${id}/`);
  expect(names).toEqual([...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  expect(names).toEqual(expect.arrayContaining([`${id}/episodes/`, `${id}/logs/`]));
  const completion = at(DEFAULT_END).replace('T', ' ').slice(0, 19);
  for (const m of members) {
    expect(m).toEqual({
      mode: m.name.endsWith('/') ? 'drwxr-xr-x' : '-rw-r--r--',
      uid: '0',
      gid: '0',
      time: completion,
      name: m.name,
    });
  }

  const gz = archive.bytes;
  expect([gz[0], gz[1], gz[2]]).toEqual([0x1f, 0x8b, 8]);
  expect(gz[3]! & 0x08).toBe(0); // FNAME: no file name.
  expect(gz.readUInt32LE(4)).toBe(0); // MTIME.
});

test('HEAD on the archive answers the same headers without a body', async () => {
  const { rt, id, archive } = await succeeded();
  const head = await rt.archive(id, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.bytes.length).toBe(0);
  for (const name of ['content-length', 'etag', 'content-disposition', 'content-type']) {
    expect({ name, value: head.headers.get(name) }).toEqual({
      name,
      value: archive.headers.get(name),
    });
  }
});

test('Range bytes=0-9 answers 206 with the first 10 bytes and Content-Range', async () => {
  const { rt, id, archive } = await succeeded();
  const size = archive.bytes.length;
  const part = await rt.archive(id, { headers: { range: 'bytes=0-9' } });
  expect(part.status).toBe(206);
  expect(part.bytes).toEqual(archive.bytes.subarray(0, 10));
  expect(part.headers.get('content-range')).toBe(`bytes 0-9/${size}`);
  expect(part.headers.get('content-length')).toBe('10');
  expect(part.headers.get('etag')).toBe(archive.headers.get('etag'));
});

test('Range bytes=-10 answers the last 10 bytes', async () => {
  const { rt, id, archive } = await succeeded();
  const size = archive.bytes.length;
  const part = await rt.archive(id, { headers: { range: 'bytes=-10' } });
  expect(part.status).toBe(206);
  expect(part.bytes).toEqual(archive.bytes.subarray(size - 10));
  expect(part.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
  expect(part.headers.get('content-length')).toBe('10');
});

test('an open-ended Range answers the rest, and the parts put together are the archive', async () => {
  const { rt, id, archive } = await succeeded();
  const size = archive.bytes.length;
  const head = await rt.archive(id, { headers: { range: 'bytes=0-99' } });
  const rest = await rt.archive(id, { headers: { range: 'bytes=100-' } });
  expect(rest.status).toBe(206);
  expect(rest.headers.get('content-range')).toBe(`bytes 100-${size - 1}/${size}`);
  expect(rest.headers.get('content-length')).toBe(String(size - 100));
  expect(Buffer.concat([head.bytes, rest.bytes])).toEqual(archive.bytes);
});

test('a Range past the end answers 416 range_not_satisfiable with Content-Range bytes */size', async () => {
  const { rt, id, archive } = await succeeded();
  const size = archive.bytes.length;
  const res = await rt.archive(id, { headers: { range: `bytes=${size}-` } });
  expectEnvelope(res, 416, 'invalid_request_error', 'range_not_satisfiable', 'Range');
  expect(res.headers.get('content-range')).toBe(`bytes */${size}`);
});

test('before success the archive and the files listing answer 409 run_not_ready', async () => {
  const rt = runtime();
  const { id } = await rt.create();
  for (const step of [0, 1, 3.999]) {
    await rt.advance(step);
    expectError(await rt.call('GET', `/v1/evaluations/${id}/archive`), 409, 'run_not_ready');
    expectError(await rt.call('GET', `/v1/sim_runs/${id}/files`), 409, 'run_not_ready');
  }
  await rt.advance(DEFAULT_END);
  expect((await rt.call('GET', `/v1/sim_runs/${id}/files`)).status).toBe(200);
});

test('the files listing pages by path in byte order with limit and after', async () => {
  const { rt, id } = await succeeded();
  const all = (await listFiles(rt, id)).map((f) => f.path);
  const seen: string[] = [];
  let after = '';
  for (;;) {
    const res = await rt.call(
      'GET',
      `/v1/sim_runs/${id}/files?limit=5${after && `&after=${after}`}`,
    );
    expect(res.status).toBe(200);
    const page = res.json.data.map((f: { path: string }) => f.path);
    seen.push(...page);
    expect(res.json.has_more).toBe(seen.length < all.length);
    expect(res.json.next_cursor).toBe(res.json.has_more ? page.at(-1) : null);
    if (!res.json.has_more) break;
    after = res.json.next_cursor;
  }
  expect(seen).toEqual(all);
  expect(all).toEqual([...all].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
});

test('in signed download mode the link needs no key, serves the same bytes and expires 1 h after completion', async () => {
  const rt = await freshAccount(runtime(), { download_mode: 'signed' });
  const { id } = await rt.create({ spec: SPEC });
  await rt.advance(DEFAULT_END);
  const { download } = await rt.get(id);
  expect(download).toEqual({
    url: expect.stringMatching(new RegExp(`^${BASE}/_downloads/[^/?#]+$`)),
    requires_auth: false,
    expires_at: at(DEFAULT_END + 3600),
    filename: `${id}.tar.gz`,
    bytes: expect.any(Number),
    sha256: expect.stringMatching(HEX64),
  });
  const path = new URL(download.url).pathname;

  const got = await raw(rt.emu, path);
  expect(got.status).toBe(200);
  expect(got.bytes.length).toBe(download.bytes);
  expect(sha256(got.bytes)).toBe(download.sha256);
  expect(got.headers.get('etag')).toBe(`"${download.sha256}"`);
  expect(got.headers.get('content-disposition')).toBe(`attachment; filename="${id}.tar.gz"`);
  expect([...extractArchive(got.bytes).keys()]).toContain(`${id}/manifest.json`);

  const head = await raw(rt.emu, path, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.bytes.length).toBe(0);
  expect(head.headers.get('content-length')).toBe(String(download.bytes));
  const part = await raw(rt.emu, path, { headers: { range: 'bytes=0-9' } });
  expect(part.status).toBe(206);
  expect(part.bytes).toEqual(got.bytes.subarray(0, 10));

  await rt.advance(3599.999);
  expect((await raw(rt.emu, path)).status).toBe(200);
  await rt.advance(0.001);
  expectEnvelope(await raw(rt.emu, path), 403, 'permission_error', 'download_expired');
});

test('an unknown signed link answers 404 resource_not_found', async () => {
  const rt = runtime();
  const res = await raw(rt.emu, '/_downloads/0000000000000000000000000000000000000000');
  expectEnvelope(res, 404, 'not_found_error', 'resource_not_found');
});
