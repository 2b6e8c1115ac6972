/**
 * Issue 36 item 7: verify and the proxy never hold a whole large body. A target answering bodies
 * over what verify keeps (8 MiB) is read to the end and shown as `{bytes, sha256}`; the proxy
 * refuses a request over the product's 1 MiB limit (413, never forwarded), streams a large answer
 * on whole and records it as `{bytes, sha256}`. How much memory that saves is measured by hand
 * (docs/verify.md), not here.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createNodeServer } from '../../src/http/node-server.js';
import { MAX_KEPT_BODY_BYTES } from '../../src/tools/verify/body-tap.js';
import { CassetteWriter } from '../../src/tools/verify/cassette.js';
import { createProxyApp } from '../../src/tools/verify/proxy-server.js';
import { DEFAULT_SECRET } from '../helpers.js';
import { verifyAgainst } from './support.js';

const BIG = MAX_KEPT_BODY_BYTES + 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');
const BIG_SHA256 = (() => {
  const hash = createHash('sha256');
  for (let sent = 0; sent < BIG; sent += CHUNK.length)
    hash.update(CHUNK.subarray(0, Math.min(CHUNK.length, BIG - sent)));
  return hash.digest('hex');
})();

const dir = mkdtempSync(join(tmpdir(), 'large-bodies-'));
/** Every request the target received: method and path. */
const received: string[] = [];
let target: Server;
let targetUrl: string;

/** Answers every request 200 with a JSON-typed body of BIG bytes, written as the client reads. */
beforeAll(async () => {
  target = createServer((req, res) => {
    req.resume();
    received.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BIG });
    let sent = 0;
    const more = () => {
      while (sent < BIG) {
        const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, BIG - sent));
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

test('verify reads answers over its limit to the end and reports them as {bytes, sha256}', async () => {
  const { report } = await verifyAgainst(targetUrl, { maxRequests: 3 });
  const keysMe = report.operations.find((o) => o.operation === 'getCurrentKey')!;
  const [read] = keysMe.checks;
  expect(read!.answer).toMatchObject({ status: 200, body: { bytes: BIG, sha256: BIG_SHA256 } });
  expect(read!.differences).toContainEqual({
    field: 'body',
    expected: 'a JSON body',
    actual: 'a body too large to keep and check',
  });
});

test('the proxy answers a POST over 1 MiB 413 in the envelope and does not forward it', async () => {
  const proxy = await createProxyApp({ target: targetUrl });
  const server = createNodeServer(proxy, proxy.emulator.deps);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const before = received.length;
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/evaluations`;
    const headers = {
      authorization: `Bearer ${DEFAULT_SECRET}`,
      'content-type': 'application/json',
    };
    const sized = await fetch(url, { method: 'POST', headers, body: 'x'.repeat(1024 * 1024 + 1) });
    // Without a Content-Length (chunked), the body is counted as it arrives.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(CHUNK);
        controller.close();
      },
    });
    const streamed = await fetch(url, { method: 'POST', headers, body: chunks, duplex: 'half' });
    for (const res of [sized, streamed]) {
      expect(res.status).toBe(413);
      const { error } = (await res.json()) as { error: Record<string, unknown> };
      expect(error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });
    }
    expect(received.slice(before)).toEqual([]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    proxy.emulator.close();
  }
});

test('the proxy streams a large answer on whole and records it as {bytes, sha256}', async () => {
  const cassette = join(dir, 'cassette');
  const proxy = await createProxyApp({ target: targetUrl, cassette: new CassetteWriter(cassette) });
  try {
    const res = await proxy.fetch(
      new Request('http://proxy.test/v1/keys/me', {
        headers: { authorization: `Bearer ${DEFAULT_SECRET}` },
      }),
    );
    expect(res.status).toBe(200);
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of res.body!) {
      hash.update(chunk);
      size += chunk.length;
    }
    expect({ size, sha256: hash.digest('hex') }).toEqual({ size: BIG, sha256: BIG_SHA256 });
    const file = await recorded(cassette);
    const exchange = JSON.parse(readFileSync(join(cassette, file), 'utf8'));
    expect(exchange.response).toMatchObject({
      status: 200,
      body: { bytes: BIG, sha256: BIG_SHA256 },
    });
    expect(readFileSync(join(cassette, file)).length).toBeLessThan(10_000);
  } finally {
    proxy.emulator.close();
  }
});

/** The cassette's one exchange file, once written (a streamed answer's is, when it ends). */
async function recorded(cassette: string): Promise<string> {
  for (let waited = 0; waited < 5000; waited += 10) {
    const [file] = readdirSync(cassette).filter((f) => f.endsWith('.json'));
    if (file) return file;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no exchange recorded');
}
