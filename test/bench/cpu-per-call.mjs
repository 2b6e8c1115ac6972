// Server CPU per call, which a busy machine hardly changes (unlike answers per second): starts a
// server (the compiled emulator as the bench starts it, or the floor), sends `--calls` calls with
// autocannon over 50 connections after a warm-up of as many, and prints the server's user and
// system CPU (from /proc, every thread) over the measured calls, divided by their number. Linux only.
// `--resume`: real resumes (a failed run back to `queued`), on runs seeded untimed before each
// round (with `--post`, each with the `{}` body; `--world N`: N runs more, never resumed).
// `--secret S`: the call with another key's secret; `--path P`, `--scopes S`: see per-call.mjs.
// `--gc-bytes`: also the bytes a call allocates, and of them the bytes that outlive a young
// collection and that reach the old generation (V8's --trace-gc-nvp, summed over the measured
// rounds): figures a busy machine does not change at all, where its CPU speed swings by 2x.
// Usage: node test/bench/cpu-per-call.mjs [--floor] [--post [--bare]] [--resume] [--secret S]
//   [--path P] [--scopes S] [--fault N] [--pin]
//   [--world N] [--calls N] [--rounds N] [--dist D]
//   [--cpu-prof-dir D] [--heap-prof-dir D] [--node-flags 'F ...'] [--gc-bytes] [-- emulator flags]
//   e.g. node test/bench/cpu-per-call.mjs -- --no-bundle-record
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpuMs, flaggedCall, listeningUrl, loadsOf, parseArgs } from './per-call.mjs';

const { own, extra, option } = parseArgs(process.argv.slice(2));
const floor = own.includes('--floor');
const resume = own.includes('--resume');
const calls = Number(option('--calls', 20000));
const rounds = Number(option('--rounds', 3));
const dist = option('--dist', 'dist');
/** `--cpu-prof-dir D`: the server writes a V8 CPU profile there when it stops. */
const profDir = option('--cpu-prof-dir', null);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const args = floor
  ? [fileURLToPath(new URL('./floor.mjs', import.meta.url))]
  : [`${dist}/main.js`, '--port', '0', '--host', '127.0.0.1', '--clock', 'manual', '--seed', '0'];
// The floor has no SIGINT handler of its own; without one the profile would not be written.
const exitOnSigint = 'data:text/javascript,process.on("SIGINT",()=>process.exit(0))';
const profile = profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [];
const heapDir = option('--heap-prof-dir', null);
if (heapDir) profile.push('--heap-prof', '--heap-prof-dir', heapDir);
if ((profDir || heapDir) && floor) profile.push('--import', exitOnSigint);
const nodeFlags = (option('--node-flags', '') ?? '').split(' ').filter(Boolean);
const gcBytes = own.includes('--gc-bytes');
if (gcBytes) nodeFlags.push('--trace-gc-nvp');
/** The server's output since it started (its GC lines with `--gc-bytes`). */
let serverOut = '';
// --pin: the server on core 0 and this process (the load) on core 1, as `npm run bench` pins them.
const pin = own.includes('--pin');
if (pin) spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
const command = [process.execPath, ...nodeFlags, ...profile, ...args, ...(floor ? [] : extra)];
if (pin) command.unshift('taskset', '-c', '0');
const child = spawn(command[0], command.slice(1), {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await listeningUrl(child, (chunk) => {
  // CPU_ECHO=1: the server's output on stderr (e.g. with --node-flags --trace-gc).
  if (process.env.CPU_ECHO) process.stderr.write(chunk);
  serverOut += chunk.toString();
});

const request = await flaggedCall(url, own, option);
/** The calls of a load; for `--resume` its runs are seeded first (untimed). */
const prepare = await loadsOf(url, request, { resume, timeout: 30 });
// `--world N` (with `--resume`): N more failed runs seeded first and never resumed, a bigger world.
const world = Number(option('--world', 0));
if (resume && world > 0) await prepare(world);
await (await prepare(calls))();
const perCall = [];
/** The GC lines of the measured rounds, and their calls (`--gc-bytes`). */
let gcLines = '';
let gcCalls = 0;
for (let round = 0; round < rounds; round += 1) {
  const load = await prepare(calls);
  const outBefore = serverOut.length;
  const before = cpuMs(child.pid);
  const result = await load();
  const used = cpuMs(child.pid) - before;
  const done = result.requests.total;
  gcLines += serverOut.slice(outBefore);
  gcCalls += done;
  perCall.push(Math.round((used * 1000) / done));
  const statuses = Object.keys(result.statusCodeStats ?? {}).join(',');
  console.log(
    `round ${round + 1}: ${done} calls (${statuses}), ${used} ms CPU, p99 ${result.latency.p99} ms`,
  );
}
// The emulator's bin collects its heap once it has been quiet for 10 s (QUIET_MS, src/heap.ts).
await new Promise((resolve) => setTimeout(resolve, 12000));
const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
console.log(
  `RSS after ${(rounds + 1) * calls} calls and 12 s idle: ${Math.round(Number(rss) / 1024)} MB`,
);
perCall.sort((a, b) => a - b);
const median = perCall[Math.floor(perCall.length / 2)];
console.log(
  `${floor ? 'floor' : `${dist} ${extra.join(' ')}`}: ${perCall.join(', ')} us/call, median ${median}`,
);
if (gcBytes) {
  // Scavenges (`gc=s`) say what outlived them; every collection says what was allocated before it.
  const sum = { allocated: 0, survived: 0, promoted: 0 };
  for (const line of gcLines.split('\n')) {
    const kind = / gc=(\w+)/.exec(line)?.[1];
    if (!kind) continue;
    sum.allocated += Number(/ allocated=(\d+)/.exec(line)?.[1] ?? 0);
    if (kind !== 's') continue;
    sum.survived += Number(/ new_space_survived=(\d+)/.exec(line)?.[1] ?? 0);
    sum.promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
  }
  const per = (bytes) => Math.round(bytes / gcCalls);
  console.log(
    `bytes a call over ${gcCalls} measured calls: allocated ${per(sum.allocated)}, ` +
      `outlived a young collection ${per(sum.survived)}, reached the old generation ${per(sum.promoted)}`,
  );
}
if (profDir || heapDir) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
} else child.kill('SIGKILL');
