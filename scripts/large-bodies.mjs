#!/usr/bin/env node
// Issue 36 item 7, measured by hand (not in CI): the peak RSS of `svc-emulator verify` and of the
// `--proxy` mode against a target that answers every request with 1 GiB, and what the proxy does
// with a 400 MB POST. Linux only (RSS from /proc). Build first (`npm run build`), then
//   node scripts/large-bodies.mjs [dist/main.js]
// prints one JSON line for verify (`--max-requests 4`) and one for the proxy (`--record`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const main = process.argv[2] ?? 'dist/main.js';
const SIZE = 1024 ** 3;
const CHUNK = Buffer.alloc(1024 * 1024, 'a');
const KEY = 'Bearer svc_test_not_checked';

/** The target: reads each request's body (counting it), answers 1 GiB of JSON-typed bytes. */
let bodyBytes = 0;
const target = createServer((req, res) => {
  req.on('data', (c) => {
    bodyBytes += c.length;
  });
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': SIZE });
    let sent = 0;
    const more = () => {
      while (sent < SIZE) {
        sent += CHUNK.length;
        if (!res.write(CHUNK)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
});
await new Promise((resolve) => target.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${target.address().port}`;
const dir = mkdtempSync(join(tmpdir(), 'large-bodies-'));

/** RSS now and at its peak, in MB. */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field) =>
    Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]) / 1024);
  return { rss: mb('VmRSS'), peak: mb('VmHWM') };
}

async function verify() {
  const args = ['verify', '--target', url, '--key', KEY.slice(7), '--max-requests', '4'];
  const child = spawn(process.execPath, [main, ...args, '--report', join(dir, 'report')]);
  let last = { peak: 0 };
  const timer = setInterval(() => {
    try {
      last = memory(child.pid);
    } catch {}
  }, 50);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  return { tool: 'verify', exit: code, peakMb: last.peak };
}

async function proxy() {
  const cassette = join(dir, 'cassette');
  const child = spawn(process.execPath, [
    main,
    '--proxy',
    url,
    '--record',
    cassette,
    '--port',
    '0',
  ]);
  const base = await new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/[^\s/]+:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
  });
  const idle = memory(child.pid).rss;
  const headers = { authorization: KEY, 'content-type': 'application/json' };
  const post = await fetch(`${base}/v1/evaluations`, {
    method: 'POST',
    headers,
    body: Buffer.alloc(400 * 1024 * 1024, 'a'),
  }).then(async (r) => ({ status: r.status, bytes: (await r.arrayBuffer()).byteLength }));
  const afterPost = memory(child.pid).rss;
  const res = await fetch(`${base}/v1/keys/me`, { headers });
  let got = 0;
  for await (const chunk of res.body) got += chunk.length;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const { rss, peak } = memory(child.pid);
  child.kill();
  const files = readdirSync(cassette).map((f) => [f, statSync(join(cassette, f)).size]);
  return {
    tool: 'proxy',
    idleMb: idle,
    post,
    postBytesForwarded: bodyBytes,
    afterPostMb: afterPost,
    answer: { status: res.status, bytes: got },
    peakMb: peak,
    afterMb: rss,
    cassette: Object.fromEntries(files),
  };
}

try {
  console.log(JSON.stringify(await verify()));
  console.log(JSON.stringify(await proxy()));
} finally {
  target.close();
  rmSync(dir, { recursive: true, force: true });
}
