#!/usr/bin/env node
/**
 * Soak test (not in CI, issue 9): mixed load against an emulator for a set time, printing the
 * emulator's RSS every few seconds and a summary. Loopback only.
 *
 *   node scripts/soak.mjs [--duration 60] [--concurrency 16] [--every 5] [--settle-slice 2000]
 *
 * Starts `src/main.ts` as a child process (in-memory, manual clocks, a free port) and reads its
 * RSS from /proc/<pid>/status (Linux). Load: keys/me, creates, gets, lists, clock advances, 404s
 * and requests with X-Emulator-Fault.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '16' },
    every: { type: 'string', default: '5' },
    'settle-slice': { type: 'string', default: '2000' },
  },
});
const durationMs = Number(values.duration) * 1000;
const concurrency = Number(values.concurrency);
const everyMs = Number(values.every) * 1000;

const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'src/main.ts',
    '--port',
    '0',
    '--clock',
    'manual',
    '--settle-slice',
    values['settle-slice'],
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const base = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (match) resolve(match[1]);
  });
  child.once('exit', (code) => reject(new Error(`emulator exited ${code}: ${out}`)));
});

const rssMb = () => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

const account = await (
  await fetch(`${base}/_control/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token_balance: 1_000_000_000,
      limits: { requests_per_minute: 1_000_000, concurrent_runs: 1_000_000 },
    }),
  })
).json();
const auth = { authorization: `Bearer ${account.key.secret}`, 'content-type': 'application/json' };
const spec = JSON.stringify({
  spec: { path: 'specs/pick.yaml', name: 'pick' },
  options: { episodes: 50 },
});
const ids = [];

const actions = [
  () => fetch(`${base}/v1/keys/me`, { headers: auth }),
  () => fetch(`${base}/v1/evaluations`, { method: 'POST', headers: auth, body: spec }),
  () => fetch(`${base}/v1/evaluations/${ids[ids.length >> 1] ?? 'ev_missing'}`, { headers: auth }),
  () => fetch(`${base}/v1/evaluations?limit=20`, { headers: auth }),
  () =>
    fetch(`${base}/_control/accounts/${account.account.id}/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 30 }),
    }),
  () => fetch(`${base}/v1/evaluations/ev_nope`, { headers: auth }),
  () => fetch(`${base}/v1/keys/me`, { headers: { ...auth, 'x-emulator-fault': '500' } }),
];

const counts = new Map();
let errors = 0;
let n = 0;
const start = performance.now();
const worker = async () => {
  while (performance.now() - start < durationMs) {
    const i = n++ % actions.length;
    try {
      const res = await actions[i]();
      const body = await res.text();
      if (i === 1 && res.status === 201) ids.push(JSON.parse(body).id);
      counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
    } catch {
      errors += 1;
    }
  }
};
const samples = [];
const timer = setInterval(() => {
  const sample = { s: Math.round((performance.now() - start) / 1000), rssMb: rssMb(), requests: n };
  samples.push(sample);
  console.log(`t=${sample.s}s rss=${sample.rssMb} MB requests=${sample.requests}`);
}, everyMs);
await Promise.all(Array.from({ length: concurrency }, worker));
clearInterval(timer);
const final = rssMb();
child.kill('SIGTERM');
console.log(
  JSON.stringify(
    {
      requests: n,
      statuses: Object.fromEntries(counts),
      network_errors: errors,
      rss_mb: {
        first: samples[0]?.rssMb ?? final,
        max: Math.max(final, ...samples.map((x) => x.rssMb)),
        last: final,
      },
    },
    null,
    2,
  ),
);
