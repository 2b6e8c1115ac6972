/**
 * Conditional requests on the archive (issue 28 item 6; RFC 9110 sections 13.1.1, 13.1.2, 13.1.5
 * and 13.2.2): `If-None-Match` answers 304, `If-Range` honours `Range` only for the current ETag,
 * `If-Match` answers 412 when stale; GET and HEAD alike, through `app.request()` and over a
 * listening server with Node's fetch, including a download resumed after the run was built anew.
 */
import { expect, test } from 'vitest';
import { startEmulator } from '../../src/tools/harness/index.js';
import { KINDS, kindWorld } from '../engine/support.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET } from '../helpers.js';
import {
  DEFAULT_END,
  expectEnvelope,
  freshAccount,
  type Runtime,
  raw,
  runtime,
  SPEC,
  sha256,
} from './support.js';

/** A succeeded run, its archive's bytes and ETag. */
async function succeeded(rt: Runtime = runtime()) {
  const { id } = await rt.create({ spec: SPEC });
  await rt.advance(DEFAULT_END);
  const full = await rt.archive(id);
  expect(full.status).toBe(200);
  const etag = full.headers.get('etag')!;
  expect(etag).toBe(`"${sha256(full.bytes)}"`);
  return { rt, id, bytes: full.bytes, etag };
}

const STALE = `"${'0'.repeat(64)}"`;

test('If-None-Match with the current ETag answers 304 with the ETag and no body, GET and HEAD', async () => {
  const { rt, id, etag } = await succeeded();
  for (const method of ['GET', 'HEAD']) {
    const res = await rt.archive(id, { method, headers: { 'if-none-match': etag } });
    expect({ method, status: res.status, length: res.bytes.length }).toEqual({
      method,
      status: 304,
      length: 0,
    });
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('content-range')).toBeNull();
  }
});

test('If-None-Match matches in a list, as *, and by weak comparison; else the file', async () => {
  const { rt, id, bytes, etag } = await succeeded();
  const status = async (value: string) =>
    (await rt.archive(id, { headers: { 'if-none-match': value } })).status;
  expect(await status(`${STALE}, ${etag}`)).toBe(304);
  expect(await status(`${STALE},${etag} , "x"`)).toBe(304);
  expect(await status('*')).toBe(304);
  expect(await status(`W/${etag}`)).toBe(304);
  // No match: a stale tag, the digest unquoted (not an entity tag), an empty list.
  for (const value of [STALE, etag.slice(1, -1), '']) {
    const res = await rt.archive(id, { headers: { 'if-none-match': value } });
    expect({ value, status: res.status }).toEqual({ value, status: 200 });
    expect(res.bytes).toEqual(bytes);
  }
});

test('If-Range with the current ETag honours Range: 206', async () => {
  const { rt, id, bytes, etag } = await succeeded();
  for (const method of ['GET', 'HEAD']) {
    const res = await rt.archive(id, {
      method,
      headers: { range: 'bytes=100-', 'if-range': etag },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-${bytes.length - 1}/${bytes.length}`);
    expect(res.headers.get('content-length')).toBe(String(bytes.length - 100));
    if (method === 'GET') expect(res.bytes).toEqual(bytes.subarray(100));
  }
});

test('If-Range with a stale ETag, a weak one, a date or junk answers 200 with the whole file', async () => {
  const { rt, id, bytes, etag } = await succeeded();
  const validators = [
    STALE,
    `W/${etag}`,
    'Thu, 01 Jan 2026 00:00:05 GMT',
    'junk',
    `${etag}, ${STALE}`,
  ];
  for (const value of validators) {
    for (const method of ['GET', 'HEAD']) {
      const res = await rt.archive(id, {
        method,
        headers: { range: 'bytes=100-', 'if-range': value },
      });
      expect({ value, method, status: res.status }).toEqual({ value, method, status: 200 });
      expect(res.headers.get('content-range')).toBeNull();
      expect(res.headers.get('content-length')).toBe(String(bytes.length));
      expect(res.headers.get('etag')).toBe(etag);
      if (method === 'GET') expect(res.bytes).toEqual(bytes);
    }
  }
});

test('a stale If-Range drops the Range before it is checked: the file, not 416', async () => {
  const { rt, id, bytes } = await succeeded();
  const past = `bytes=${bytes.length + 10}-`;
  expect((await rt.archive(id, { headers: { range: past } })).status).toBe(416);
  const res = await rt.archive(id, { headers: { range: past, 'if-range': STALE } });
  expect(res.status).toBe(200);
  expect(res.bytes).toEqual(bytes);
});

test('If-Match: the current ETag or * serves the file; a stale or weak one answers 412', async () => {
  const { rt, id, bytes, etag } = await succeeded();
  for (const value of [etag, `${STALE}, ${etag}`, '*']) {
    const res = await rt.archive(id, { headers: { 'if-match': value } });
    expect({ value, status: res.status }).toEqual({ value, status: 200 });
    expect(res.bytes).toEqual(bytes);
  }
  for (const value of [STALE, `W/${etag}`]) {
    const res = await rt.call('GET', `/v1/evaluations/${id}/archive`, undefined, {
      'if-match': value,
    });
    expectEnvelope(res, 412, 'invalid_request_error', 'precondition_failed', 'If-Match');
    expect(res.headers.get('etag')).toBe(etag);
  }
});

test('RFC 9110 13.2.2 order: If-Match before If-None-Match before If-Range', async () => {
  const { rt, id, etag } = await succeeded();
  const both = await rt.archive(id, { headers: { 'if-match': STALE, 'if-none-match': etag } });
  expect(both.status).toBe(412);
  const ranged = await rt.archive(id, {
    headers: { 'if-none-match': etag, range: 'bytes=0-9', 'if-range': etag },
  });
  expect(ranged.status).toBe(304);
  const passes = await rt.archive(id, {
    headers: { 'if-match': etag, 'if-none-match': STALE, range: 'bytes=0-9', 'if-range': etag },
  });
  expect(passes.status).toBe(206);
  expect(passes.bytes.length).toBe(10);
});

test('conditions apply only to an archive there is: a run not succeeded still answers 409', async () => {
  const rt = runtime();
  const { id } = await rt.create({ spec: SPEC });
  const res = await rt.call('GET', `/v1/evaluations/${id}/archive`, undefined, {
    'if-none-match': '*',
  });
  expectEnvelope(res, 409, 'conflict_error', 'run_not_ready', null);
});

test('the signed link answers the same conditions', async () => {
  const rt = await freshAccount(runtime(), { download_mode: 'signed' });
  const { id } = await rt.create({ spec: SPEC });
  await rt.advance(DEFAULT_END);
  const { download } = await rt.get(id);
  const path = new URL(download.url).pathname;
  const etag = `"${download.sha256}"`;
  expect((await raw(rt.emu, path, { headers: { 'if-none-match': etag } })).status).toBe(304);
  const stale = await raw(rt.emu, path, { headers: { range: 'bytes=5-', 'if-range': STALE } });
  expect(stale.status).toBe(200);
  expect(sha256(stale.bytes)).toBe(download.sha256);
});

test.each(KINDS)(
  "every kind's archive: %s answers 304 and honours If-Range",
  async (_n, registered) => {
    const w = kindWorld(registered);
    const { id } = await w.create();
    await w.advance(3600);
    const { headers, bytes } = await w.archive(id);
    const etag = headers.get('etag')!;
    const call = (h: Record<string, string>) =>
      w.emu.app.request(w.path('archive', id), {
        headers: { authorization: `Bearer ${DEFAULT_SECRET}`, ...h },
      });
    expect((await call({ 'if-none-match': etag })).status).toBe(304);
    expect((await call({ range: 'bytes=1-', 'if-range': etag })).status).toBe(206);
    const whole = await call({ range: 'bytes=1-', 'if-range': STALE });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
  },
);

test('over a listening server: a download resumed with If-Range after the run was built anew gets the whole new file', async () => {
  const emulator = await startEmulator();
  try {
    const { baseUrl } = emulator;
    const key = { authorization: `Bearer ${DEFAULT_SECRET}` };
    const control = async (path: string, body: unknown) => {
      const res = await fetch(`${baseUrl}/_control${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, path).toBeLessThan(300);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const advance = (seconds: number) =>
      control(`/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { ...key, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as {
        id: string;
        status: string;
        download: { sha256: string; bytes: number };
      };
    };
    const archive = (id: string, headers: Record<string, string> = {}) =>
      fetch(`${baseUrl}/v1/evaluations/${id}/archive`, { headers: { ...key, ...headers } });

    // The first archive of the run: the client gets its first 100 bytes, and its ETag.
    const first = await api('POST', '/v1/evaluations', { spec: SPEC });
    await advance(DEFAULT_END);
    const part = await archive(first.id, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    const oldEtag = part.headers.get('etag')!;
    const head = Buffer.from(await part.arrayBuffer());
    expect(head.length).toBe(100);

    // The world reset, the same run (same id) fails, is resumed and succeeds later: a new archive.
    await control('/reset', {});
    const again = await api('POST', '/v1/evaluations', {
      spec: SPEC,
      options: { emulator: { outcomes: [{ fail: 'policy_failed' }] } },
    });
    expect(again.id).toBe(first.id);
    await advance(DEFAULT_END);
    expect((await api('GET', `/v1/evaluations/${again.id}`)).status).toBe('failed');
    expect((await api('POST', `/v1/evaluations/${again.id}/resume`)).status).toBe('queued');
    await advance(DEFAULT_END);
    const run = await api('GET', `/v1/evaluations/${again.id}`);
    expect(run.status).toBe('succeeded');
    expect(`"${run.download.sha256}"`).not.toBe(oldEtag);

    // The client resumes where it stopped, with If-Range: the whole new file, never a piece of it.
    const resumed = await archive(first.id, { range: 'bytes=100-', 'if-range': oldEtag });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-range')).toBeNull();
    expect(resumed.headers.get('etag')).toBe(`"${run.download.sha256}"`);
    const whole = Buffer.from(await resumed.arrayBuffer());
    expect(whole.length).toBe(run.download.bytes);
    expect(sha256(whole)).toBe(run.download.sha256);

    // With the new ETag it resumes; and If-None-Match with it is 304 over the wire, GET and HEAD.
    const newEtag = resumed.headers.get('etag')!;
    const rest = await archive(first.id, { range: 'bytes=100-', 'if-range': newEtag });
    expect(rest.status).toBe(206);
    expect(Buffer.concat([whole.subarray(0, 100), Buffer.from(await rest.arrayBuffer())])).toEqual(
      whole,
    );
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${baseUrl}/v1/evaluations/${first.id}/archive`, {
        method,
        headers: { ...key, 'if-none-match': newEtag },
      });
      expect({ method, status: res.status }).toEqual({ method, status: 304 });
      expect(res.headers.get('etag')).toBe(newEtag);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    }
  } finally {
    await emulator.stop();
  }
});
