// What a quiet spell costs the traffic after it: starts the compiled emulator as the bench does
// (server on core 0), warms it, then three times: `--calls` keys/me, a quiet spell of `--quiet`
// seconds (past the bin's idle collection, QUIET_MS in src/heap.ts, when longer than 10), the
// same calls again, and once more; prints the server's CPU a call (from /proc) and V8's scavenges
// (--trace-gc) for each. With the young generation held shrunk (before 2026-11-29) the calls after
// the first quiet spell cost twice the CPU for good; a full collection's warm-up shows as the
// first load after it costing more than the one after. Linux only.
// Usage: node test/bench/after-quiet.mjs [--dist D] [--calls N] [--quiet S] [-- emulator flags]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cpuMs, listeningUrl, measuredCall, parseArgs } from './per-call.mjs';

const { extra, option } = parseArgs(process.argv.slice(2));
const dist = option('--dist', 'dist');
const calls = Number(option('--calls', 4000));
const quietSec = Number(option('--quiet', 13));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const server = [`${dist}/main.js`, '--port', '0', '--host', '127.0.0.1', '--clock', 'manual'];
const child = spawn('taskset', ['-c', '0', process.execPath, '--trace-gc', ...server, ...extra], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
const url = await listeningUrl(child, (chunk) => {
  out += chunk.toString();
});
const load = (amount) =>
  autocannon({ url, connections: 50, amount, requests: [measuredCall(false)], timeout: 30 });
/** A load's CPU a call in us, and the scavenges V8 made during it. */
const measured = async () => {
  const from = out.length;
  const before = cpuMs(child.pid);
  const result = await load(calls);
  const us = Math.round(((cpuMs(child.pid) - before) * 1000) / result.requests.total);
  return `${us} us (${(out.slice(from).match(/Scavenge/g) ?? []).length} scavenges)`;
};

await load(30_000);
for (let round = 1; round <= 3; round += 1) {
  const steady = await measured();
  await new Promise((resolve) => setTimeout(resolve, quietSec * 1000));
  const first = await measured();
  const next = await measured();
  console.log(`round ${round}: before ${steady}; after ${quietSec} s quiet ${first}, then ${next}`);
}
child.kill();
